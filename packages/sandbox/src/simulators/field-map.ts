/**
 * A platform's fields that are SANDBOX fields renamed and re-encoded, written once as a table and read both ways:
 * forwards to render a SANDBOX record in the platform's shape, backwards to turn the platform's write body into a
 * SANDBOX write body (only the fields the body carries, so an update patches). Fields with logic of their own (a
 * status with more cases one way than the other, a name split in two) stay code beside the table.
 */
import { num } from './amounts.ts';

/** How one field's value reads each way. */
export interface Codec {
  /** SANDBOX's value (never undefined: an absent field is left out) as the platform's. */
  out: (value: unknown) => unknown;
  /** The platform's value as SANDBOX's, undefined to leave it out of the write body. Without it the field is only rendered. */
  in?: (value: unknown) => unknown;
}

/** Platform field name → [SANDBOX field name, codec]. */
export type FieldMap<N> = Readonly<Record<string, readonly [keyof N & string, Codec]>>;

export const textOf = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** Text as it is; written back as text (a number as its digits). */
export const text: Codec = { out: (value) => value, in: textOf };

/** A number as it is (a quantity); written back only when the platform sent a number. */
export const number: Codec = { out: (value) => value, in: (value) => (typeof value === 'number' ? value : undefined) };

/** Decimal text (a rate, a percentage) as a JSON number; written back as text, from a number only. */
export const decimal: Codec = { out: (value) => Number(value), in: (value) => (typeof value === 'number' ? String(value) : undefined) };

/** SANDBOX's money (decimal text) as a JSON number, in cents so it stays exact; written back as the platform sent it. */
export const money: Codec = {
  out: (value) => num(typeof value === 'string' ? value : undefined),
  in: (value) => value ?? undefined,
};

/** A field the platform shows but does not take in a write (a computed total). */
export const renderOnly = (codec: Codec): Codec => ({ out: codec.out });

/** An enumeration by table (SANDBOX value → platform value); a platform value the table lacks writes back as `fallback`. */
export function oneOf(table: Readonly<Record<string, string>>, fallback?: string): Codec {
  return {
    out: (value) => (typeof value === 'string' ? table[value] : undefined),
    in: (value) => Object.keys(table).find((key) => table[key] === value) ?? fallback,
  };
}

/** The platform's fields of a SANDBOX record (forwards). */
export function renderFields<N extends object>(map: FieldMap<N>, record: N): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, [native, codec]] of Object.entries(map)) {
    const value: unknown = record[native];
    if (value !== undefined) out[field] = codec.out(value);
  }
  return out;
}

/** The SANDBOX fields of what a platform write body carries (backwards). */
export function readFields<N>(map: FieldMap<N>, body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, [native, codec]] of Object.entries(map)) {
    const value = Object.hasOwn(body, field) && body[field] !== undefined && codec.in !== undefined ? codec.in(body[field]) : undefined;
    if (value !== undefined) out[native] = value;
  }
  return out;
}
