/**
 * Objects stored before a field of their model existed are served with what the field holds for them, so an
 * upgrade needs no rewrite of `records` (docs/upgrading.md): the next sync that reads the object from its platform
 * stores the full shape. Each entry fills only what is missing and leaves a stored value alone.
 */
import { allocatedAt } from '../model/invoice-credit-memo.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import { totalQuantity } from '../model/purchase-order.ts';

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

const UPGRADES: Partial<Record<UnifiedObjectType, (object: Json) => Json>> = {
  // Fields added in issue 20 (the reference's names and fields).
  vendor: (o) => ({
    ...o,
    website: o.website ?? null,
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
  // Stored as decimal text before expenses' rate became a number.
  expense: numericRate,
  // The reference's fields added in issue 35, filled from ours; deposited and payment_method_id stay null until the
  // payment is read again.
  invoice_payment: (o) => ({
    ...numericRate(o),
    payment_method_id: o.payment_method_id ?? null,
    txn_date: o.txn_date ?? o.transaction_date,
    deposited: o.deposited ?? null,
    linked_invoices: Array.isArray(o.linked_invoices)
      ? o.linked_invoices.map((entry: unknown) =>
          isObject(entry) ? { allocated_at: entry.allocated_date, amount: entry.allocated_amount, ...entry } : entry,
        )
      : o.linked_invoices,
  }),
  invoice_credit_memo: (o) => ({
    ...o,
    allocated_at: o.allocated_at === undefined ? allocatedAt(storedAllocations(o.linked_invoices)) : o.allocated_at,
  }),
};

export function upgradeStored(type: UnifiedObjectType, object: Json): Json {
  const upgrade = UPGRADES[type];
  return upgrade === undefined ? object : upgrade(object);
}
