/**
 * Unified write bodies → QBO request bodies, for the written objects: bills,
 * journal entries, customers and items. Only fields present in the input are written
 * (a PATCH becomes a sparse update; an array such as line_items replaces the
 * whole list). Fields QBO has no place for are refused with a 400 naming them,
 * never dropped silently.
 */
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { ConnectorContext } from '../connector.ts';
import { isRecord } from '../json.ts';
import { dateOnly, exactDifference, has, invalid, link, list, wholeCents, type Input, type Native } from '../inbound.ts';
import { callQbo } from './client.ts';
import { parseEntity } from './contract.ts';

const present = (value: unknown): boolean => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);

/** Refuses fields QuickBooks Online cannot hold when they carry a value. */
export function refuse(input: Input, fields: readonly string[], prefix = ''): void {
  for (const field of fields) {
    if (has(input, field) && present(input[field])) throw invalid(`${prefix}${field}`, 'QuickBooks Online has no such field; leave it out or null.');
  }
}

/** A QBO ReferenceType to the platform id behind a service id; undefined for null or absent. */
export async function ref(ctx: ConnectorContext, type: UnifiedObjectType, value: unknown, field: string): Promise<{ value: string } | undefined> {
  const id = await link(ctx, type, value, field);
  return id === undefined ? undefined : { value: id };
}

/** How a field is written: as text, as a date, or as a reference to an object of the type. */
type Written = 'text' | 'date' | UnifiedObjectType;

/**
 * Copies the fields present in the input. QBO clears text with an empty string, not null; a null date or link is left
 * out (a sparse update cannot clear one).
 */
export async function copy(
  ctx: ConnectorContext,
  input: Input,
  out: Native,
  fields: readonly (readonly [string, string, Written])[],
  prefix = '',
): Promise<void> {
  for (const [from, to, written] of fields) {
    if (!has(input, from)) continue;
    const value = input[from];
    if (written === 'text') out[to] = str(value);
    else if (written === 'date') {
      if (value !== null) out[to] = dateOnly(value);
    } else {
      const reference = await ref(ctx, written, value, `${prefix}${from}`);
      if (reference !== undefined) out[to] = reference;
    }
  }
}

/**
 * The account a payment is made from, read live from QBO (its AccountType decides how QBO pays from it, and a type
 * changed in QBO since the last sync counts); undefined when account_id is absent or null.
 */
export async function paidFromAccount(ctx: ConnectorContext, value: unknown): Promise<{ id: string; type: string } | undefined> {
  const id = await link(ctx, 'account', value, 'account_id');
  if (id === undefined) return undefined;
  const answer = await callQbo(ctx, { method: 'GET', path: `account/${encodeURIComponent(id)}`, operation: 'read Account' });
  return { id, type: parseEntity('Account', answer.Account).AccountType ?? '' };
}

/** A text field of the (schema-validated) input; '' for null. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** Qty × UnitPrice in cents, as QBO computes a line's Amount. */
export const round2 = (value: number): number => Math.round(value * 100) / 100;

export function numberOf(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, 'must be a number');
  return value;
}

/** QBO keeps amounts in cents: more decimals are refused, not rounded. */
export const amountOf = (value: unknown, field: string): number => wholeCents(numberOf(value, field), field);

export function copyCurrency(input: Input, out: Native): void {
  if (has(input, 'currency_code') && typeof input.currency_code === 'string') out.CurrencyRef = { value: input.currency_code };
  if (has(input, 'currency_rate') && input.currency_rate !== null) {
    const rate = Number(input.currency_rate);
    if (!Number.isFinite(rate) || rate <= 0) throw invalid('currency_rate', 'must be a positive decimal');
    out.ExchangeRate = rate;
  }
}

/** An expense line: item lines post to the item's expense account (account_id is then not sent). */
async function billLine(ctx: ConnectorContext, line: Input, n: number): Promise<{ line: Native; department: string | undefined }> {
  const at = `line_items[${n}].`;
  refuse(line, ['location_id', 'project_id', 'tax_rate_id', 'discount_amount', 'discount_percentage'], at);
  const detail: Native = {};
  await copy(
    ctx,
    line,
    detail,
    [
      ['class_id', 'ClassRef', 'class'],
      ['customer_id', 'CustomerRef', 'customer'],
    ],
    at,
  );
  const department = await link(ctx, 'department', line.department_id, `${at}department_id`);
  const out: Native = {};
  if (has(line, 'description') && line.description !== null) out.Description = str(line.description);
  const entry = line.item;
  if (isRecord(entry)) {
    const quantity = entry.quantity === undefined || entry.quantity === null ? 1 : numberOf(entry.quantity, `${at}item.quantity`);
    const unit = amountOf(entry.unit_amount, `${at}item.unit_amount`);
    out.DetailType = 'ItemBasedExpenseLineDetail';
    out.Amount = round2(quantity * unit);
    out.ItemBasedExpenseLineDetail = { ItemRef: await ref(ctx, 'item', entry.id, `${at}item.id`), Qty: quantity, UnitPrice: unit, ...detail };
  } else {
    const total = amountOf(line.total_amount, `${at}total_amount`);
    const tax = typeof line.tax_amount === 'number' ? line.tax_amount : 0;
    out.DetailType = 'AccountBasedExpenseLineDetail';
    // QBO computes tax from tax codes: the line amount is before tax.
    out.Amount = wholeCents(
      typeof line.sub_total === 'number' ? line.sub_total : exactDifference(total, tax),
      `${at}${typeof line.sub_total === 'number' ? 'sub_total' : 'total_amount'}`,
    );
    out.AccountBasedExpenseLineDetail = { AccountRef: await ref(ctx, 'account', line.account_id, `${at}account_id`), ...detail };
  }
  return { line: out, department };
}

export async function billBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  refuse(input, ['subsidiary_id', 'linked_purchase_orders', 'additional_fields']);
  if (has(input, 'status') && input.status !== null && input.status !== 'open') {
    throw invalid('status', 'QuickBooks Online bills are open until paid; they cannot be drafts or voided (delete the bill instead).');
  }
  const out: Native = {};
  await copy(ctx, input, out, [
    ['vendor_id', 'VendorRef', 'vendor'],
    ['account_id', 'APAccountRef', 'account'],
    ['payment_terms_id', 'SalesTermRef', 'payment_term'],
    ['issue_date', 'TxnDate', 'date'],
    ['due_date', 'DueDate', 'date'],
    ['document_number', 'DocNumber', 'text'],
    ['memo', 'PrivateNote', 'text'],
  ]);
  copyCurrency(input, out);
  await expenseLines(ctx, input, out);
  return out;
}

/** The expense lines of a bill or vendor credit, when sent; QBO tracks the department on the whole document, so the lines must agree. */
export async function expenseLines(ctx: ConnectorContext, input: Input, out: Native): Promise<void> {
  if (!has(input, 'line_items')) return;
  const lines = await Promise.all(list(input, 'line_items').map((line, n) => billLine(ctx, line, n)));
  const departments = new Set(lines.map((l) => l.department).filter((d) => d !== undefined));
  if (departments.size > 1)
    throw invalid('line_items[].department_id', 'QuickBooks Online tracks one department per document; give every line the same department_id.');
  const [department] = departments;
  if (department !== undefined) out.DepartmentRef = { value: department };
  out.Line = lines.map((l) => l.line);
}

export async function journalEntryBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  refuse(input, ['subsidiary_id', 'additional_fields']);
  const out: Native = {};
  await copy(ctx, input, out, [
    ['transaction_date', 'TxnDate', 'date'],
    ['memo', 'PrivateNote', 'text'],
  ]);
  copyCurrency(input, out);
  if (has(input, 'line_items')) {
    out.Line = await Promise.all(
      list(input, 'line_items').map(async (line, n) => {
        const at = `line_items[${n}].`;
        refuse(line, ['tax_rate_id'], at);
        const signed = amountOf(line.total_amount, `${at}total_amount`);
        const entry: Native = {
          DetailType: 'JournalEntryLineDetail',
          Amount: Math.abs(signed),
          JournalEntryLineDetail: {
            PostingType: signed < 0 ? 'Credit' : 'Debit',
            AccountRef: await ref(ctx, 'account', line.account_id, `${at}account_id`),
          },
        };
        if (has(line, 'description') && line.description !== null) entry.Description = str(line.description);
        return entry;
      }),
    );
  }
  return out;
}

/** The address types an entity keeps (type → QBO field), and what a refusal of another says. */
export interface AddressKinds {
  fields: Readonly<Record<string, string>>;
  only: string;
}

const CUSTOMER_ADDRESSES: AddressKinds = {
  fields: { billing: 'BillAddr', shipping: 'ShipAddr' },
  only: 'QuickBooks Online keeps a billing and a shipping address only.',
};

function addressBody(entry: Input, n: number, kinds: AddressKinds): [string, Native] {
  const kind = entry.type === null || entry.type === undefined ? 'billing' : str(entry.type).toLowerCase();
  const target = kinds.fields[kind];
  if (target === undefined) throw invalid(`addresses[${n}].type`, kinds.only);
  const body: Native = {};
  const fields = [
    ['address1', 'Line1'],
    ['address2', 'Line2'],
    ['address3', 'Line3'],
    ['city', 'City'],
    ['country', 'Country'],
    ['postal_code', 'PostalCode'],
    ['region', 'CountrySubDivisionCode'],
  ] as const;
  for (const [from, to] of fields) if (typeof entry[from] === 'string') body[to] = entry[from];
  return [target, body];
}

/**
 * What QBO's customers and vendors (name list entries) share: the contact person, email, phone, currency, whether
 * active, and the addresses of the kinds the entity keeps, one of each.
 */
export function contactFields(input: Input, out: Native, kinds: AddressKinds): void {
  if (has(input, 'contact_name')) {
    // QBO keeps a person's given and family name apart: the first word is the given name.
    const [given = '', ...family] = str(input.contact_name).trim().split(/\s+/);
    out.GivenName = given;
    out.FamilyName = family.join(' ');
  }
  if (has(input, 'email')) out.PrimaryEmailAddr = { Address: str(input.email) };
  if (has(input, 'phone')) out.PrimaryPhone = { FreeFormNumber: str(input.phone) };
  copyCurrency(input, out);
  if (has(input, 'status') && input.status !== null) out.Active = input.status !== 'archived';
  if (has(input, 'addresses')) {
    const seen = new Set<string>();
    for (const [n, entry] of list(input, 'addresses').entries()) {
      const [target, body] = addressBody(entry, n, kinds);
      if (seen.has(target)) throw invalid(`addresses[${n}].type`, 'QuickBooks Online keeps one address of each type.');
      seen.add(target);
      out[target] = body;
    }
  }
}

export async function customerBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  refuse(input, ['subsidiary_id', 'subsidiaries', 'registration_number']);
  const out: Native = {};
  await copy(ctx, input, out, [
    ['customer_name', 'DisplayName', 'text'],
    ['tax_number', 'PrimaryTaxIdentifier', 'text'],
    ['payment_terms_id', 'SalesTermRef', 'payment_term'],
    ['parent_id', 'ParentRef', 'customer'],
  ]);
  contactFields(input, out, CUSTOMER_ADDRESSES);
  if (out.ParentRef !== undefined) out.Job = true;
  return out;
}

/** A Class or Department: its name, its parent (a sub-class, a sub-department) and whether it is active. */
function trackingBody(type: 'class' | 'department', sub: 'SubClass' | 'SubDepartment') {
  return async (ctx: ConnectorContext, input: Input): Promise<Native> => {
    const out: Native = {};
    await copy(ctx, input, out, [
      ['name', 'Name', 'text'],
      ['parent_id', 'ParentRef', type],
    ]);
    if (out.ParentRef !== undefined) out[sub] = true;
    if (has(input, 'status') && input.status !== null) out.Active = input.status !== 'archived';
    return out;
  };
}

export const classBody = trackingBody('class', 'SubClass');
export const departmentBody = trackingBody('department', 'SubDepartment');

/** A standard Term: days until due, and an early-payment discount within its days. */
export async function termBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  const out: Native = {};
  await copy(ctx, input, out, [['name', 'Name', 'text']]);
  if (has(input, 'due_days') && input.due_days !== null) out.DueDays = input.due_days;
  if (has(input, 'discount_days') && input.discount_days !== null) out.DiscountDays = input.discount_days;
  if (has(input, 'discount_percentage') && input.discount_percentage !== null) out.DiscountPercent = input.discount_percentage;
  if (has(input, 'status') && input.status !== null) out.Active = input.status !== 'archived';
  return out;
}

/**
 * A sales line: QBO sells items, and a sales line posts to its item's income account, so a line names an item; an
 * account_id beside it must be that account (QBO would ignore any other). The line amount is before tax.
 */
export async function salesLine(ctx: ConnectorContext, line: Input, n: number): Promise<Native> {
  const at = `line_items[${n}].`;
  refuse(line, ['customer_id', 'location_id', 'project_id', 'tax_rate_id', 'discount_amount', 'discount_percentage'], at);
  const entry = line.item;
  if (!isRecord(entry)) throw invalid(`${at}item`, "QuickBooks Online sells items: give item.id (the line posts to the item's income account).");
  const total = amountOf(line.total_amount, `${at}total_amount`);
  const quantity = entry.quantity === undefined || entry.quantity === null ? 1 : numberOf(entry.quantity, `${at}item.quantity`);
  const unit = entry.unit_amount === undefined || entry.unit_amount === null ? null : amountOf(entry.unit_amount, `${at}item.unit_amount`);
  const detail: Native = { ItemRef: await ref(ctx, 'item', entry.id, `${at}item.id`), Qty: quantity, ...(unit === null ? {} : { UnitPrice: unit }) };
  await copy(ctx, line, detail, [['class_id', 'ClassRef', 'class']], at);
  const out: Native = { DetailType: 'SalesItemLineDetail', Amount: unit === null ? total : round2(quantity * unit), SalesItemLineDetail: detail };
  if (has(line, 'description') && line.description !== null) out.Description = str(line.description);
  return out;
}

/** A SalesReceipt: the sale and its payment at once, deposited to account_id (QBO's Undeposited Funds without one). */
export async function salesReceiptBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  const out: Native = {};
  await copy(ctx, input, out, [
    ['customer_id', 'CustomerRef', 'customer'],
    ['account_id', 'DepositToAccountRef', 'account'],
    ['issue_date', 'TxnDate', 'date'],
    ['document_number', 'DocNumber', 'text'],
    ['reference', 'PaymentRefNum', 'text'],
  ]);
  // The receipt's memo is the customer's, as read (mapSalesReceipt).
  if (has(input, 'memo')) out.CustomerMemo = { value: str(input.memo) };
  copyCurrency(input, out);
  if (has(input, 'line_items')) out.Line = await Promise.all(list(input, 'line_items').map((line, n) => salesLine(ctx, line, n)));
  return out;
}

const ITEM_TYPES: Readonly<Record<string, string>> = { service: 'Service', non_inventory: 'NonInventory' };

/** One side of an item: its price, account and description (QBO keeps the purchase side's description apart). */
async function itemSide(ctx: ConnectorContext, input: Input, out: Native, side: 'bill_item' | 'invoice_item'): Promise<void> {
  const entry = input[side];
  if (!isRecord(entry)) return;
  const at = `${side}.`;
  // QBO's items name tax codes (SalesTaxCodeRef), not the tax rates tax_rate_id serves.
  refuse(entry, ['tax_rate_id'], at);
  const purchase = side === 'bill_item';
  await copy(
    ctx,
    entry,
    out,
    [
      ['account_id', purchase ? 'ExpenseAccountRef' : 'IncomeAccountRef', 'account'],
      ['description', purchase ? 'PurchaseDesc' : 'Description', 'text'],
    ],
    at,
  );
  if (has(entry, 'unit_price') && entry.unit_price !== null)
    out[purchase ? 'PurchaseCost' : 'UnitPrice'] = amountOf(entry.unit_price, `${at}unit_price`);
}

export async function itemBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  const out: Native = {};
  await copy(ctx, input, out, [
    ['name', 'Name', 'text'],
    ['code', 'Sku', 'text'],
  ]);
  if (has(input, 'type') && typeof input.type === 'string') {
    const type = ITEM_TYPES[input.type];
    if (type === undefined) throw invalid('type', 'QuickBooks Online items written here are service or non_inventory.');
    out.Type = type;
  }
  if (has(input, 'status') && input.status !== null) out.Active = input.status !== 'archived';
  await itemSide(ctx, input, out, 'bill_item');
  await itemSide(ctx, input, out, 'invoice_item');
  return out;
}
