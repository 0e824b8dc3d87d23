/**
 * Numbers in write bodies are what the user sent, or refused. JSON text such
 * as 1e309 parses as Infinity, which JSON storage turns into null and the
 * platform into 0; an amount with more decimal places than its currency has
 * would be rounded by the platform (0.004 USD booked as 0.00). So, before
 * anything is queued:
 *
 * - every number anywhere in the body must be finite;
 * - every money field the body's schema describes must have at most its
 *   currency's decimal places and be small enough to be kept exactly.
 *
 * Money fields are known by name (MONEY_FIELDS); a number the schema describes
 * under any other name is money too unless NOT_MONEY_FIELDS names it, so a new
 * numeric field is never left unchecked (amounts.test.ts classifies every
 * numeric field of every write route). The currency of an amount is the
 * nearest `currency_code` around it in the body, else the caller's fallback
 * (the target record's, else the company's).
 */
import { invalidField } from './check-input.ts';
import { decimalParts, decimalPlaces } from '../money/decimal.ts';
import { minorUnits, MOST_MINOR_UNITS } from './minor-units.ts';

type Json = Record<string, unknown>;

/** Numeric write fields holding money. */
export const MONEY_FIELDS: ReadonlySet<string> = new Set([
  'total_amount',
  'sub_total',
  'tax_amount',
  'discount_amount',
  'unit_amount',
  'unit_price',
  'price',
  'unit_cost',
  'amount',
  'allocated_amount',
  'payment_amount',
  'running_balance',
  'current_balance',
  'available_balance',
  'credit_limit',
]);

/** Numeric write fields that are not money: they keep their own rules (and must still be finite). */
export const NOT_MONEY_FIELDS: ReadonlySet<string> = new Set([
  'quantity',
  'discount_percentage',
  'currency_rate',
  'rate',
  'due_days',
  'discount_days',
  'inventory_quantity',
]);

/** Amounts must stay below 10^15 with at most 15 significant digits: every such decimal survives a double unchanged. */
const MAX_AMOUNT = 1e15;
const MAX_SIGNIFICANT_DIGITS = 15;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface Amount {
  field: string;
  value: number;
  /** The nearest currency_code around the amount in the body; null when there is none. */
  currency: string | null;
}

function fits(schema: Json, value: unknown): boolean {
  switch (schema.type) {
    case undefined:
      return true;
    case 'null':
      return value === null;
    case 'number':
    case 'integer':
      return typeof value === 'number';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isJson(value);
    default:
      return typeof value === schema.type;
  }
}

/** The schema (or anyOf branch) that describes `value`; undefined where no schema does (free-form objects). */
function describing(schema: unknown, value: unknown): Json | undefined {
  if (!isJson(schema)) return undefined;
  if (!Array.isArray(schema.anyOf)) return fits(schema, value) ? schema : undefined;
  for (const branch of schema.anyOf) {
    const found = describing(branch, value);
    if (found !== undefined) return found;
  }
  return undefined;
}

const isNumeric = (schema: Json | undefined): boolean => schema?.type === 'number' || schema?.type === 'integer';

export function isMoneyField(name: string): boolean {
  return MONEY_FIELDS.has(name) || !NOT_MONEY_FIELDS.has(name);
}

interface Visit {
  value: unknown;
  schema: Json | undefined;
  field: string;
  name: string;
  currency: string | null;
}

/**
 * Refuses the first non-finite number in `body` (400 naming it) and returns the
 * money amounts `schema` describes. Walks with its own stack: a deeply nested
 * free-form object must not overflow the call stack.
 */
export function collectAmounts(body: unknown, schema: Json | undefined): Amount[] {
  const amounts: Amount[] = [];
  const stack: Visit[] = [{ value: body, schema: describing(schema, body), field: '', name: '', currency: null }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, schema: at, field, name, currency } = visit;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        throw invalidField(field, `must be a finite number (got ${String(value)}: beyond ±1.7976931348623157e308 a JSON number has no value)`);
      }
      if (isNumeric(at) && isMoneyField(name)) amounts.push({ field, value, currency });
    } else if (Array.isArray(value)) {
      const items = at?.items;
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], schema: describing(items, value[i]), field: `${field}[${String(i)}]`, name, currency });
      }
    } else if (isJson(value)) {
      const properties = isJson(at?.properties) ? at.properties : {};
      const inner = typeof value.currency_code === 'string' ? value.currency_code : currency;
      for (const key of Object.keys(value).reverse()) {
        const child = value[key];
        stack.push({
          value: child,
          schema: describing(properties[key], child),
          field: field === '' ? key : `${field}.${key}`,
          name: key,
          currency: inner,
        });
      }
    }
  }
  return amounts;
}

/** One amount against its currency: no more decimal places than the currency has, and exactly representable. */
export function checkAmount(amount: Amount): void {
  const { field, value, currency } = amount;
  const parts = decimalParts(value);
  const places = decimalPlaces(parts);
  const allowed = currency === null ? null : minorUnits(currency);
  const limit = allowed ?? MOST_MINOR_UNITS;
  if (places > limit) {
    const rule =
      allowed === null
        ? `an amount whose currency is not known may have at most ${String(MOST_MINOR_UNITS)} decimal places`
        : `${String(currency)} allows ${allowed === 0 ? 'no decimal places' : `at most ${String(allowed)} decimal place${allowed === 1 ? '' : 's'}`}`;
    throw invalidField(
      field,
      `has ${String(places)} decimal places (got ${String(value)}) but ${rule}; amounts are never rounded, send the amount to book`,
    );
  }
  if (Math.abs(value) >= MAX_AMOUNT || parts.digits.length > MAX_SIGNIFICANT_DIGITS) {
    throw invalidField(
      field,
      `cannot be kept exactly (got ${String(value)}): amounts must be below 10^15 with at most ${String(MAX_SIGNIFICANT_DIGITS)} significant digits`,
    );
  }
}

/**
 * Every number in the body finite, every amount right for its currency.
 * `fallbackCurrency` is asked only when an amount has no currency_code around it.
 */
export async function checkNumbers(body: unknown, schema: Json | undefined, fallbackCurrency: () => Promise<string | null>): Promise<void> {
  const amounts = collectAmounts(body, schema);
  if (amounts.length === 0) return;
  const fallback = amounts.some((a) => a.currency === null) ? await fallbackCurrency() : null;
  for (const amount of amounts) checkAmount({ ...amount, currency: amount.currency ?? fallback });
}
