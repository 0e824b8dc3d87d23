/**
 * QBO request bodies as SANDBOX write bodies, for the entities the connector writes (Bill, JournalEntry, Customer) and
 * Vendor. Only fields present in the body are translated, so a sparse update stays a patch. References carry QBO ids,
 * turned back into SANDBOX ids by the entity they point to; a reference that is no QBO id is passed on as given, for
 * SANDBOX to refuse as unknown.
 */
import type { UnifiedObjectType } from '../../../../../src/model/object-types.ts';
import type { Body } from '../../writes/validate.ts';
import { isRecord, recordsIn } from '../wire.ts';
import { sandboxId } from './ids.ts';
import type { Json } from './shapes.ts';

function refId(type: UnifiedObjectType, value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const id = typeof value.value === 'string' ? value.value : typeof value.value === 'number' ? String(value.value) : '';
  if (id === '') return undefined;
  return sandboxId(type, id) ?? id;
}

/** Sets `to` when the QBO field was sent (a reference that names nothing clears nothing: QBO cannot clear a ref sparsely). */
function copyRef(from: Json, field: string, type: UnifiedObjectType, out: Body, to: string): void {
  const id = refId(type, from[field]);
  if (id !== undefined) out[to] = id;
}

function copy(from: Json, field: string, out: Body, to: string): void {
  if (Object.hasOwn(from, field)) out[to] = from[field];
}

/** Amounts go to SANDBOX as decimal text, which it checks for at most two decimals. */
function money(value: unknown): unknown {
  return typeof value === 'number' ? String(value) : value;
}

/** Currency and rate; QBO's rate is a number, SANDBOX's decimal text. */
function copyCurrency(from: Json, out: Body): void {
  if (isRecord(from.CurrencyRef) && typeof from.CurrencyRef.value === 'string') out.CurrencyCode = from.CurrencyRef.value.toUpperCase();
  if (typeof from.ExchangeRate === 'number') out.ExchangeRate = String(from.ExchangeRate);
}

/** QBO creates a transaction without a TxnDate on today's date; SANDBOX wants one. */
function txnDate(from: Json, out: Body, create: boolean): void {
  if (typeof from.TxnDate === 'string') out.TxnDate = from.TxnDate;
  else if (create) out.TxnDate = new Date().toISOString().slice(0, 10);
}

const lines = (from: Json): Json[] | undefined => (Array.isArray(from.Line) ? recordsIn(from.Line) : undefined);

/** An expense line: an account line's Amount is its price; an item line has Qty and UnitPrice. */
function billLine(line: Json, department: string | undefined): Body {
  const out: Body = {};
  copy(line, 'Description', out, 'Description');
  const account = isRecord(line.AccountBasedExpenseLineDetail) ? line.AccountBasedExpenseLineDetail : undefined;
  const item = isRecord(line.ItemBasedExpenseLineDetail) ? line.ItemBasedExpenseLineDetail : undefined;
  const detail = account ?? item ?? {};
  if (item !== undefined) {
    copyRef(item, 'ItemRef', 'item', out, 'ItemId');
    out.Qty = typeof item.Qty === 'number' ? item.Qty : 1;
    out.UnitPrice = money(item.UnitPrice ?? line.Amount);
  } else {
    out.Qty = 1;
    out.UnitPrice = money(line.Amount);
  }
  copyRef(detail, 'AccountRef', 'account', out, 'AccountId');
  copyRef(detail, 'ClassRef', 'class', out, 'ClassId');
  copyRef(detail, 'CustomerRef', 'customer', out, 'CustomerId');
  copyRef(detail, 'TaxCodeRef', 'tax_rate', out, 'TaxCodeId');
  if (department !== undefined) out.DepartmentId = department;
  return out;
}

export function billBody(from: Json, create: boolean): Body {
  const out: Body = {};
  copyRef(from, 'VendorRef', 'vendor', out, 'VendorId');
  copyRef(from, 'APAccountRef', 'account', out, 'APAccountId');
  copyRef(from, 'SalesTermRef', 'payment_term', out, 'TermId');
  copy(from, 'DueDate', out, 'DueDate');
  copy(from, 'DocNumber', out, 'DocNumber');
  copy(from, 'PrivateNote', out, 'Memo');
  txnDate(from, out, create);
  copyCurrency(from, out);
  const given = lines(from);
  if (given !== undefined) out.Lines = given.map((line) => billLine(line, refId('department', from.DepartmentRef)));
  return out;
}

export function journalEntryBody(from: Json, create: boolean): Body {
  const out: Body = {};
  copy(from, 'PrivateNote', out, 'Memo');
  copy(from, 'DocNumber', out, 'DocNumber');
  txnDate(from, out, create);
  copyCurrency(from, out);
  const given = lines(from);
  if (given !== undefined) {
    out.Lines = given.map((line) => {
      const detail = isRecord(line.JournalEntryLineDetail) ? line.JournalEntryLineDetail : {};
      const entry: Body = { [detail.PostingType === 'Credit' ? 'Credit' : 'Debit']: money(line.Amount) };
      copyRef(detail, 'AccountRef', 'account', entry, 'AccountId');
      copyRef(detail, 'TaxCodeRef', 'tax_rate', entry, 'TaxCodeId');
      copy(line, 'Description', entry, 'Description');
      return entry;
    });
  }
  return out;
}

function address(kind: 'Billing' | 'Shipping', from: unknown): Body | undefined {
  if (!isRecord(from)) return undefined;
  const field = (name: string): string | undefined => (typeof from[name] === 'string' ? from[name] : undefined);
  return {
    Kind: kind,
    Line1: field('Line1'),
    Line2: field('Line2'),
    City: field('City'),
    Region: field('CountrySubDivisionCode'),
    PostalCode: field('PostalCode'),
    Country: field('Country'),
  };
}

/** Customers and vendors: the display name, a contact person, email, phone, web site, addresses and terms. */
function contactBody(from: Json, termField: 'SalesTermRef' | 'TermRef', taxField: 'PrimaryTaxIdentifier' | 'TaxIdentifier'): Body {
  const out: Body = {};
  copy(from, 'DisplayName', out, 'DisplayName');
  if (Object.hasOwn(from, 'GivenName') || Object.hasOwn(from, 'FamilyName')) {
    const name = [from.GivenName, from.FamilyName].filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(' ');
    out.ContactName = name === '' ? null : name;
  }
  if (isRecord(from.PrimaryEmailAddr)) out.Email = from.PrimaryEmailAddr.Address ?? null;
  if (isRecord(from.PrimaryPhone)) out.Phone = from.PrimaryPhone.FreeFormNumber ?? null;
  if (isRecord(from.WebAddr)) out.Website = from.WebAddr.URI ?? null;
  copy(from, taxField, out, 'TaxNumber');
  copyRef(from, termField, 'payment_term', out, 'TermId');
  copyRef(from, 'ParentRef', 'customer', out, 'ParentId');
  copyCurrency(from, out);
  if (typeof from.Active === 'boolean') out.Status = from.Active ? 'Active' : 'Archived';
  const addresses = [address('Billing', from.BillAddr), address('Shipping', from.ShipAddr)].filter((a): a is Body => a !== undefined);
  if (addresses.length > 0) out.Addresses = addresses;
  return out;
}

export const customerBody = (from: Json): Body => contactBody(from, 'SalesTermRef', 'PrimaryTaxIdentifier');
export const vendorBody = (from: Json): Body => contactBody(from, 'TermRef', 'TaxIdentifier');
