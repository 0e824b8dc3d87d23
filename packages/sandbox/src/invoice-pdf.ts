/**
 * SANDBOX's PDF of one of its invoices (its API has no PDFs, so the connector renders the invoice record it synced):
 * number, dates, customer, lines and totals as text, through the kit's minimal PDF writer.
 */
import { textPdf } from '../../../src/platforms/pdf.ts';
import type { NativeInvoice, NativeLine } from './native.ts';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function isLine(value: unknown): value is NativeLine {
  return typeof value === 'object' && value !== null && 'LineId' in value && 'Total' in value;
}

function lineText(line: NativeLine): string {
  const what = line.Description ?? `Account ${line.AccountId}`;
  return `${what}   ${line.Qty} x ${line.UnitPrice}   tax ${line.Tax}   ${line.Total}`;
}

/** The PDF of a synced SANDBOX invoice record (its native fields; missing ones print empty). */
export function sandboxInvoicePdf(raw: Partial<Record<keyof NativeInvoice, unknown>>): Buffer {
  const currency = text(raw.CurrencyCode);
  const lines = Array.isArray(raw.Lines) ? raw.Lines.filter(isLine) : [];
  const number = text(raw.DocNumber);
  return textPdf(`Invoice ${number}`, [
    `INVOICE ${number}`,
    `Status: ${text(raw.Status)}`,
    `Issued: ${text(raw.TxnDate)}    Due: ${text(raw.DueDate)}`,
    `Customer: ${text(raw.CustomerId)}`,
    `Currency: ${currency}`,
    '',
    'Description   Quantity x Unit price   Tax   Amount',
    ...lines.map(lineText),
    '',
    `Subtotal: ${text(raw.SubTotal)} ${currency}`,
    `Discount: ${text(raw.TotalDiscount)} ${currency}`,
    `Tax: ${text(raw.TotalTax)} ${currency}`,
    `Total: ${text(raw.Total)} ${currency}`,
    `Amount due: ${text(raw.AmountDue)} ${currency}`,
    ...(text(raw.Memo) === '' ? [] : ['', `Memo: ${text(raw.Memo)}`]),
  ]);
}
