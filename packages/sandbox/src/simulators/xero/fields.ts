/**
 * Xero's fields that are SANDBOX's renamed (the kit's field tables): rendered from SANDBOX's records, and read back from
 * the connector's write bodies by the same table (the kit's field tables). Everything else Xero has is code in render-*.ts and inbound.ts.
 */
import type { NativeContact, NativeInvoice, NativeLine } from '../../native.ts';
import { decimal, lookup, money, number, renderOnly, text, type Codec, type FieldTable } from '../field-table.ts';

/** A line's tax rate is the SANDBOX tax code's id (see renderTaxRate); Xero's NONE, or none, is no tax code. */
const taxType: Codec = { out: (value) => value, in: (value) => (typeof value === 'string' && value !== '' && value !== 'NONE' ? value : undefined) };

export const CONTACT_FIELDS: FieldTable<NativeContact> = {
  ContactStatus: ['Status', lookup({ Active: 'ACTIVE', Archived: 'ARCHIVED' }, 'Active')],
  Name: ['DisplayName', text],
  EmailAddress: ['Email', text],
  TaxNumber: ['TaxNumber', text],
  Website: ['Website', text],
  DefaultCurrency: ['CurrencyCode', text],
};

/** What invoices, bills and credit notes share. */
export const DOCUMENT_FIELDS: FieldTable<Pick<NativeInvoice, 'Memo' | 'CurrencyCode' | 'ExchangeRate' | 'TotalTax' | 'Total'>> = {
  Reference: ['Memo', text],
  CurrencyCode: ['CurrencyCode', text],
  CurrencyRate: ['ExchangeRate', decimal],
  TotalTax: ['TotalTax', renderOnly(money)],
  Total: ['Total', renderOnly(money)],
};

/** What a manual journal's lines share with a document's. */
export const LEDGER_LINE_FIELDS: FieldTable<Pick<NativeLine, 'Description' | 'TaxCodeId'>> = {
  Description: ['Description', text],
  TaxType: ['TaxCodeId', taxType],
};

export const LINE_FIELDS: FieldTable<NativeLine> = {
  ...LEDGER_LINE_FIELDS,
  Quantity: ['Qty', number],
  UnitAmount: ['UnitPrice', money],
  TaxAmount: ['Tax', renderOnly(money)],
  // Written back as code: a DiscountAmount, when sent too, wins.
  DiscountRate: ['DiscountPct', renderOnly(decimal)],
};
