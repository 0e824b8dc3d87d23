/**
 * Objects stored before a field of their model existed are served with what the field holds for them, so an
 * upgrade needs no rewrite of `records` (docs/upgrading.md): the next sync that reads the object from its platform
 * stores the full shape. Each entry fills only what is missing and leaves a stored value alone.
 */
import type { UnifiedObjectType } from '../model/object-types.ts';
import { totalQuantity } from '../model/purchase-order.ts';
import { currencyCodesOf } from '../model/vendor.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

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
  // Stored as decimal text before expenses' rate became a number.
  expense: (o) => (typeof o.currency_rate === 'string' ? { ...o, currency_rate: Number(o.currency_rate) } : o),
  // Fields added in issue 35 (the reference's master-data fields); the next sync fills what is stored as null here.
  customer: (o) => ({ ...o, first_name: o.first_name ?? null, last_name: o.last_name ?? null }),
  department: (o) => ({ ...o, platform_url: o.platform_url ?? null }),
  subsidiary: (o) => ({ ...o, elimination: o.elimination ?? false }),
};

export function upgradeStored(type: UnifiedObjectType, object: Json): Json {
  const upgrade = UPGRADES[type];
  return upgrade === undefined ? object : upgrade(object);
}
