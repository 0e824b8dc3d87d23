/**
 * The one set of answer readers every connector maps vendor answers with, and their one policy (docs/connectors.md,
 * "Reads"). Lenient readers never throw: a value that is absent or of another type reads as null (or [] for lists), so a
 * surprise shows as an empty field, not a crash or a wrong number. The `need*` readers are for fields without which the
 * record means nothing (an amount, its currency): they throw an AnswerShapeError naming the record and the field.
 *
 * - Text: a string with a non-blank character, as written (not trimmed); absent, null, '' and blank text read as null.
 * - Currency: a known ISO 4217 code in any case, upper-cased; other text is the connection's base currency, learnt
 *   once per job (`baseCurrency`), or null when the platform has none; absent is null.
 * - Dates: ISO 8601 text as written when it parses; Unix seconds as an ISO 8601 instant.
 * - Amounts: numbers or decimal text ("12.50"); minor units and sums through integers, so 1999 cents is 19.99, never
 *   19.990000000000002.
 */
import { CURRENCY_CODES, type CurrencyCode } from '../model/shared.ts';
import type { ConnectorContext } from './connector.ts';
import { isRecord } from './json.ts';
import { perJob, type PerJob } from './per-job.ts';

export { isRecord };
type Raw = Record<string, unknown>;

/** A vendor record whose mapping found a required field missing or of the wrong type: the answer breaks the contract. */
export class AnswerShapeError extends Error {
  constructor(platform: string, raw: Raw, field: string, wanted: string) {
    super(`${platform} ${text(raw.object) ?? text(raw.__typename) ?? 'record'} ${text(raw.id) ?? '?'}: ${field} is not ${wanted}`);
    this.name = 'AnswerShapeError';
  }
}

export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
export const record = (value: unknown): Raw | null => (isRecord(value) ? value : null);
export const records = (value: unknown): Raw[] => (Array.isArray(value) ? value.filter(isRecord) : []);
export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
export const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);
export const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);
/** A lower-case value of an upper-case enum (PARTIALLY_REFUNDED → partially_refunded). */
export const lower = (value: unknown): string | null => text(value)?.toLowerCase() ?? null;

/** The value at a path of nested objects, undefined where one is missing. */
export const at = (value: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, key) => (isRecord(v) ? v[key] : undefined), value);

/** A number, or decimal text ("12.50", "-3"); anything else (NaN, "1e3", "12,50") null. */
export function decimal(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || !/^-?\d+(\.\d+)?$/.test(value.trim())) return null;
  return Number(value);
}

/** An amount in major units from minor ones (1999, 2 decimals → 19.99; 1234, 0 → 1234), rounded to the decimals. */
export function fromMinor(minor: number, decimals: number): number {
  if (decimals === 0) return minor;
  return Number((minor / 10 ** decimals).toFixed(decimals));
}

/** The sum of amounts of `decimals` places, added as integers (0.1 + 0.2 is 0.3). */
export function sumAmounts(values: readonly number[], decimals = 2): number {
  const scale = 10 ** decimals;
  return values.reduce((sum, value) => sum + Math.round(value * scale), 0) / scale;
}

/** ISO 8601 text as written when it parses; anything else null. */
export const isoTime = (value: unknown): string | null => {
  const written = text(value);
  return written !== null && Number.isFinite(Date.parse(written)) ? written : null;
};

/** Unix seconds → ISO 8601. */
export const unixIso = (value: unknown): string | null =>
  typeof value === 'number' && Number.isFinite(value) ? new Date(value * 1000).toISOString() : null;

/** The later of two ISO 8601 instants (either may be null). */
export function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

const CURRENCIES: ReadonlySet<string> = new Set(CURRENCY_CODES);
const isCurrencyCode = (value: string): value is CurrencyCode => CURRENCIES.has(value);

/**
 * A known ISO 4217 code (any case, upper-cased); text that is no known code is `base` (the connection's base currency,
 * or null); absent or blank is null (the record names no currency: the mapper says what that means).
 */
export function currency(value: unknown, base: CurrencyCode | null): CurrencyCode | null {
  const code = text(value)?.trim().toUpperCase() ?? null;
  if (code === null) return null;
  return isCurrencyCode(code) ? code : base;
}

/** Whether `value` has, at any depth, a field named one of `fields` whose text is no known currency code. */
export function namesUnknownCurrency(value: unknown, fields: readonly string[]): boolean {
  if (Array.isArray(value)) return value.some((item) => namesUnknownCurrency(item, fields));
  if (!isRecord(value)) return false;
  return Object.entries(value).some(([key, field]) =>
    fields.includes(key) && typeof field === 'string' ? currency(field, null) === null && text(field) !== null : namesUnknownCurrency(field, fields),
  );
}

/** The connection's base currency for one job, for the mappers (synchronous), which read it with `known`. */
export type BaseCurrency = PerJob<CurrencyCode | null>;

/**
 * The one place a connector says where its base currency comes from (Stripe's account default_currency, Shopify's
 * shop currencyCode, Xero's organisation BaseCurrency): read once per job, and only a known code counts.
 */
export function baseCurrency(load: (ctx: ConnectorContext) => Promise<unknown>): BaseCurrency {
  return perJob(async (ctx) => currency(await load(ctx), null));
}

/** The base currency this job learnt, null before it did (the object table loads it before mapping a page). */
export const knownBase = (base: BaseCurrency, ctx: ConnectorContext): CurrencyCode | null => base.known(ctx) ?? null;

/** Readers that throw AnswerShapeError for a required field, named after the platform. */
export function strictReaders(platform: string) {
  const fail = (raw: Raw, field: string, wanted: string): never => {
    throw new AnswerShapeError(platform, raw, field, wanted);
  };
  const needText = (raw: Raw, field: string): string => text(raw[field]) ?? fail(raw, field, 'a string');
  return {
    needText,
    needInteger: (raw: Raw, field: string): number => integer(raw[field]) ?? fail(raw, field, 'an integer'),
    needCurrency: (raw: Raw, field: string, base: CurrencyCode | null): CurrencyCode =>
      currency(needText(raw, field), base) ?? fail(raw, field, 'a known ISO 4217 code'),
  };
}
