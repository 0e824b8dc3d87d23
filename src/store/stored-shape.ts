/**
 * Objects stored before a field of their model existed are served with what the field holds for them, so an
 * upgrade needs no rewrite of `records` (docs/upgrading.md): the next sync that reads the object from its platform
 * stores the full shape. Each entry fills only what is missing and leaves a stored value alone.
 */
import type { UnifiedObjectType } from '../model/object-types.ts';
import { totalQuantity } from '../model/purchase-order.ts';
import { allocatedAt, flatLineFields } from '../model/invoice-credit-memo.ts';
import { currencyCodesOf } from '../model/vendor.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);
/** A rate stored as decimal text before it became a number. */
const numericRate = (o: Json): Json => (typeof o.currency_rate === 'string' ? { ...o, currency_rate: Number(o.currency_rate) } : o);

/** The allocations stored: entries that are objects with a string allocated_date. */
function storedAllocations(entries: unknown): (Json & { allocated_date: string })[] {
  if (!Array.isArray(entries)) return [];
  return entries.filter((entry: unknown): entry is Json & { allocated_date: string } => isObject(entry) && typeof entry.allocated_date === 'string');
}

function itemLines(lines: unknown): { item: { quantity: number } | null }[] {
  if (!Array.isArray(lines)) return [];
  return lines.map((line: unknown) => {
    const item = isObject(line) && isObject(line.item) ? line.item : null;
    return { item: item === null ? null : { quantity: numberOrNull(item.quantity) ?? 0 } };
  });
}

/** Each object of a stored list with the given fields filled where missing; what is not a list stays as stored. */
function eachFilled(list: unknown, fill: (entry: Json) => Json): unknown {
  return Array.isArray(list) ? list.map((entry: unknown) => (isObject(entry) ? fill(entry) : entry)) : list;
}

/** An order line stored before lines had dates: the platform's dates are not known until the next sync. */
const datedLine = (line: Json): Json => ({ created_at: null, updated_at: null, ...line });

/** The item of a stored line, its numbers as stored (0 where one is missing). */
function storedItem(line: Json): { id: string; quantity: number; unit_amount: number } | null {
  if (!isObject(line.item)) return null;
  const { id, quantity, unit_amount } = line.item;
  return { id: typeof id === 'string' ? id : '', quantity: numberOrNull(quantity) ?? 0, unit_amount: numberOrNull(unit_amount) ?? 0 };
}

const UPGRADES: Partial<Record<UnifiedObjectType, (object: Json) => Json>> = {
  // Fields added in issue 20 (the reference's names and fields).
  vendor: (o) => ({
    ...o,
    website: o.website ?? null,
    // Issue 35: every platform names the vendor's list name vendor_name and its only currency currency_code.
    display_name: o.display_name === undefined ? (o.vendor_name ?? null) : o.display_name,
    bank_account_number: o.bank_account_number ?? null,
    currency_codes: o.currency_codes ?? currencyCodesOf(typeof o.currency_code === 'string' ? o.currency_code : null),
    subsidiaries: Array.isArray(o.subsidiaries)
      ? o.subsidiaries.map((entry: unknown, index) => (isObject(entry) ? { primary: index === 0, ...entry } : entry))
      : (o.subsidiaries ?? null),
  }),
  payment_term: (o) => ({
    ...o,
    term_name: o.term_name ?? o.name ?? '',
    discount_percent: o.discount_percent === undefined ? numberOrNull(o.discount_percentage) : o.discount_percent,
  }),
  purchase_order: (o) => ({ ...o, total_quantity: o.total_quantity === undefined ? totalQuantity(itemLines(o.line_items)) : o.total_quantity }),
  // Fields added in issue 35 (the reference's shapes). A stored line's type is null until the invoice is read again.
  invoice: (o) => ({
    ...o,
    discount_amount: o.discount_amount === undefined ? (o.total_discount ?? null) : o.discount_amount,
    linked_payments: eachFilled(o.linked_payments, (entry) => ({ type: 'INVOICE_PAYMENT', ...entry })),
    line_items: eachFilled(o.line_items, (line) => ({ type: null, ...line })),
  }),
  invoice_credit_memo: (o) => ({
    ...o,
    allocated_at: o.allocated_at === undefined ? allocatedAt(storedAllocations(o.linked_invoices)) : o.allocated_at,
    line_items: eachFilled(o.line_items, (line) =>
      line.amount === undefined
        ? { ...line, ...flatLineFields({ item: storedItem(line), total_amount: numberOrNull(line.total_amount) ?? 0 }) }
        : line,
    ),
  }),
  // Stored as decimal text before expenses' rate became a number.
  expense: numericRate,
  // Fields added in issue 35 (the reference's order fields): unknown for what was stored before, until the next sync.
  order: (o) => ({
    ...o,
    line_items: eachFilled(o.line_items, datedLine),
    fulfillments: eachFilled(o.fulfillments, (f) => ({ id: null, ...f, line_items: eachFilled(f.line_items, datedLine) })),
    refunds: eachFilled(o.refunds, (r) => ({ ...r, line_items: eachFilled(r.line_items, (line) => ({ status: null, ...line })) })),
    customer: isObject(o.customer) ? { created_at: null, updated_at: null, ...o.customer } : o.customer,
  }),
  // The reference's fields added in issue 35, filled from ours; deposited and payment_method_id stay null until the
  // payment is read again.
  invoice_payment: (o) => ({
    ...numericRate(o),
    payment_method_id: o.payment_method_id ?? null,
    txn_date: o.txn_date ?? o.transaction_date,
    deposited: o.deposited ?? null,
    linked_invoices: eachFilled(o.linked_invoices, (entry) => ({ allocated_at: entry.allocated_date, amount: entry.allocated_amount, ...entry })),
  }),
  // Fields added in issue 35 (the reference's master-data fields); the next sync fills what is stored as null here.
  customer: (o) => ({ ...o, first_name: o.first_name ?? null, last_name: o.last_name ?? null }),
  department: (o) => ({ ...o, platform_url: o.platform_url ?? null }),
  subsidiary: (o) => ({ ...o, elimination: o.elimination ?? false }),
};

export function upgradeStored(type: UnifiedObjectType, object: Json): Json {
  const upgrade = UPGRADES[type];
  return upgrade === undefined ? object : upgrade(object);
}
