/**
 * SANDBOX's helpers for unified → native payloads, on top of the ones every
 * connector shares (src/platforms/inbound.ts, re-exported here).
 */
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import type { ConnectorContext } from '../../../../src/platforms/connector.ts';

export { dateOnly, decimal, has, invalid, link, list, type Input, type Native } from '../../../../src/platforms/inbound.ts';
import { decimal, has, invalid, link, list, type Input, type Native } from '../../../../src/platforms/inbound.ts';

/** Copies plain fields present in the input under their native names, converted. */
export function copy(input: Input, out: Native, fields: readonly (readonly [string, string, ((v: unknown) => unknown)?])[]): void {
  for (const [from, to, convert] of fields) {
    if (!has(input, from)) continue;
    const value = input[from];
    out[to] = value === null ? null : convert === undefined ? value : convert(value);
  }
}

/** Copies links present in the input, resolved to platform ids. */
export async function links(
  ctx: ConnectorContext,
  input: Input,
  out: Native,
  fields: readonly (readonly [string, string, UnifiedObjectType])[],
): Promise<void> {
  for (const [from, to, type] of fields) {
    if (has(input, from)) out[to] = (await link(ctx, type, input[from], from)) ?? null;
  }
}

export function enumValue(field: string, value: unknown, table: Readonly<Record<string, string>>): string | undefined {
  if (value === null || value === undefined) return undefined;
  const mapped = typeof value === 'string' ? table[value] : undefined;
  if (mapped === undefined) throw invalid(field, `must be one of ${Object.keys(table).join(', ')}`);
  return mapped;
}

export const TRACKING_LINKS = [
  ['class_id', 'ClassId', 'class'],
  ['customer_id', 'CustomerId', 'customer'],
  ['department_id', 'DepartmentId', 'department'],
  ['location_id', 'LocationId', 'location'],
  ['project_id', 'ProjectId', 'project'],
  ['tax_rate_id', 'TaxCodeId', 'tax_rate'],
] as const;

/** A standard line item as a native line: the platform recomputes tax and totals from it. */
export async function documentLine(ctx: ConnectorContext, line: Input, field: string): Promise<Native> {
  const out: Native = {};
  await links(ctx, line, out, [['account_id', 'AccountId', 'account'], ...TRACKING_LINKS]);
  copy(line, out, [
    ['description', 'Description'],
    ['discount_amount', 'Discount', decimal],
    ['discount_percentage', 'DiscountPct', (v) => String(v)],
  ]);
  const item = line.item;
  if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
    const entry = item as Input;
    out.ItemId = await link(ctx, 'item', entry.id, `${field}.item.id`);
    out.Qty = entry.quantity ?? 1;
    out.UnitPrice = decimal(entry.unit_amount);
  } else {
    const total = typeof line.total_amount === 'number' ? line.total_amount : 0;
    const tax = typeof line.tax_amount === 'number' && line.tax_rate_id !== undefined && line.tax_rate_id !== null ? line.tax_amount : 0;
    out.Qty = 1;
    // decimal() turns a float artefact (10.1 - 0.1) into whole cents but hands a real sub-cent amount on as sent,
    // for the platform to refuse: never rounded away here.
    out.UnitPrice = decimal(typeof line.sub_total === 'number' ? line.sub_total : total - tax);
  }
  return out;
}

export async function documentLines(ctx: ConnectorContext, input: Input, out: Native): Promise<void> {
  if (!has(input, 'line_items')) return;
  const lines: Native[] = [];
  for (const [n, line] of list(input, 'line_items').entries()) lines.push(await documentLine(ctx, line, `line_items[${n}]`));
  out.Lines = lines;
}
