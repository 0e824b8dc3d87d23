/** Reading and checking write payloads the way a strict ledger API does: field by field, naming the field. */
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import type { LineInput } from '../books.ts';
import { isDateOnly } from '../dates.ts';
import { parseRate, tryParseCents } from '../money.ts';
import type { NativeAccount, NativeOf, NativeType } from '../native.ts';
import { invalid, NativeError } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';

export type Body = Record<string, unknown>;

/** Sets an optional field, or removes it when the value is undefined (the native format leaves empty fields out). */
export function setOptional<T extends object, F extends keyof T>(record: T, field: F, value: T[F] | undefined): void {
  if (value === undefined) Reflect.deleteProperty(record, field);
  else record[field] = value;
}

export function isBody(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(body: Body, field: string, required: true): string;
export function text(body: Body, field: string, required?: false): string | undefined;
export function text(body: Body, field: string, required = false): string | undefined {
  const value = body[field];
  if (value === undefined || value === null || value === '') {
    if (required) throw invalid('RequiredField', `${field} is required`, field);
    return undefined;
  }
  if (typeof value !== 'string') throw invalid('InvalidField', `${field} must be text`, field);
  if (value.length > 500) throw invalid('InvalidField', `${field} is longer than 500 characters`, field);
  return value;
}

export function date(body: Body, field: string, required: true): string;
export function date(body: Body, field: string, required?: false): string | undefined;
export function date(body: Body, field: string, required = false): string | undefined {
  const value = text(body, field, required as false);
  if (value === undefined) return undefined;
  const day = value.slice(0, 10);
  if (!isDateOnly(day)) throw invalid('InvalidDate', `${field} must be a date (YYYY-MM-DD)`, field);
  return day;
}

export function cents(body: Body, field: string, required: true): number;
export function cents(body: Body, field: string, required?: false): number | undefined;
export function cents(body: Body, field: string, required = false): number | undefined {
  const value = body[field];
  if (value === undefined || value === null || value === '') {
    if (required) throw invalid('RequiredField', `${field} is required`, field);
    return undefined;
  }
  const parsed = tryParseCents(value);
  if (parsed === null || Math.abs(parsed) > 99_999_999_999)
    throw invalid('InvalidAmount', `${field} must be an amount with at most 2 decimals`, field);
  return parsed;
}

export function list(body: Body, field: string, required = false): Body[] {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) throw invalid('RequiredField', `${field} is required`, field);
    return [];
  }
  if (!Array.isArray(value) || !value.every(isBody)) throw invalid('InvalidField', `${field} must be a list of objects`, field);
  return value;
}

export function oneOf<T extends string>(body: Body, field: string, values: readonly T[], fallback: T): T {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  const found = values.find((v) => v === value);
  if (found === undefined) throw invalid('InvalidField', `${field} must be one of ${values.join(', ')}`, field);
  return found;
}

/** A live record the payload points at, or a 400 naming the field. */
export async function existing<K extends NativeType>(unit: Unit, type: K, id: string | undefined, field: string): Promise<NativeOf[K] | undefined> {
  if (id === undefined) return undefined;
  const record = await unit.get(type, id);
  if (record === null) throw invalid('InvalidReference', `${field} ${id} does not exist`, field);
  return record;
}

export async function account(
  unit: Unit,
  id: string | undefined,
  field: string,
  types?: readonly NativeAccount['Type'][],
): Promise<NativeAccount | undefined> {
  const found = await existing(unit, 'account', id, field);
  if (found !== undefined && types !== undefined && !types.includes(found.Type)) {
    throw invalid('InvalidReference', `${field} ${found.Id} is a ${found.Type} account; expected ${types.join(' or ')}`, field);
  }
  return found;
}

export function notFound(type: UnifiedObjectType, id: string): NativeError {
  return new NativeError(404, 'NotFound', `${type} ${id} does not exist`, 'Id');
}

/** A document line from its payload: the platform computes tax from the tax code, never trusts a given total. */
/**
 * A document line. A line with an item and no account posts to the item's account of the document's side (income on
 * invoices, expense on bills and vendor credits), as QuickBooks does with item lines.
 */
export async function lineInput(
  unit: Unit,
  line: Body,
  n: number,
  field: string,
  itemAccount: 'IncomeAccountId' | 'ExpenseAccountId',
): Promise<LineInput> {
  const where = `${field}[${n}]`;
  const itemId = text(line, 'ItemId');
  const item = await existing(unit, 'item', itemId, `${where}.ItemId`);
  const given = text(line, 'AccountId');
  if (given === undefined && item === undefined)
    throw invalid('RequiredField', `${where}.AccountId is required on a line without an ItemId`, `${where}.AccountId`);
  const accountId = given ?? item?.[itemAccount] ?? '';
  await account(unit, accountId, `${where}.AccountId`);
  const qtyRaw = line.Qty ?? 1;
  if (typeof qtyRaw !== 'number' || !Number.isFinite(qtyRaw) || qtyRaw <= 0 || qtyRaw > 1_000_000)
    throw invalid('InvalidField', `${where}.Qty must be a positive number`, `${where}.Qty`);
  const unitPrice = cents(line, 'UnitPrice', true);
  const input: LineInput = { accountId, qty: qtyRaw, unitPriceCents: unitPrice };
  const description = text(line, 'Description');
  if (description !== undefined) input.description = description;
  const discount = cents(line, 'Discount');
  if (discount !== undefined) input.discountCents = discount;
  const pct = text(line, 'DiscountPct');
  if (pct !== undefined && discount === undefined) input.discountPctMilli = rate(pct, `${where}.DiscountPct`);
  const taxCodeId = text(line, 'TaxCodeId');
  const code = await existing(unit, 'tax_rate', taxCodeId, `${where}.TaxCodeId`);
  if (code !== undefined) {
    input.taxCodeId = code.Id;
    input.taxRateMilli = parseRate(code.EffectiveRate);
  }
  if (item !== undefined) input.itemId = item.Id;
  const tracking = [
    ['ClassId', 'class'],
    ['DepartmentId', 'department'],
    ['LocationId', 'location'],
    ['ProjectId', 'project'],
    ['CustomerId', 'customer'],
  ] as const;
  for (const [key, type] of tracking) {
    const id = text(line, key);
    if ((await existing(unit, type, id, `${where}.${key}`)) !== undefined) input[key] = id;
  }
  return input;
}

export function rate(value: string, field: string): number {
  try {
    const milli = parseRate(value);
    if (milli > 100_000) throw new RangeError('over 100%');
    return milli;
  } catch {
    throw invalid('InvalidField', `${field} must be a percentage between 0 and 100 with at most 3 decimals`, field);
  }
}

/** Refuses a value another live record of the type already has. */
export async function unique(unit: Unit, type: UnifiedObjectType, field: string, value: string | undefined, exceptId: string | null): Promise<void> {
  if (value === undefined) return;
  const other = await unit.findBy(type, field, value, exceptId);
  if (other !== null) throw new NativeError(400, 'DuplicateValue', `Another ${type} (${other}) already has ${field} "${value}"`, field);
}

/** Sets or clears optional text fields from a payload (patch semantics when base exists). */
export function optionalTexts(record: Record<string, unknown>, body: Body, fields: readonly string[], isNew: boolean): void {
  for (const field of fields) {
    if (!isNew && !Object.hasOwn(body, field)) continue;
    setOptional(record, field, text(body, field));
  }
}

export async function loadOr404<K extends NativeType>(unit: Unit, type: K, id: string): Promise<NativeOf[K]> {
  const record = await unit.get(type, id);
  if (record === null) throw notFound(type, id);
  return record;
}

/** A list of ids from a payload. */
export function ids(body: Body, field: string): string[] {
  const value = body[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw invalid('InvalidField', `${field} must be a list of ids`, field);
  return value;
}
