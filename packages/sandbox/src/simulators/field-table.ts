/**
 * Field tables: a platform record's fields, each named by its path in the platform's shape (`PrimaryEmailAddr.Address`)
 * and drawn from one field of a SANDBOX record through a codec. Read forwards, a table renders a SANDBOX record in the
 * platform's shape; read backwards, it turns the platform's write body into a SANDBOX write body, field for field, so
 * a mapping is written once for both directions. Only what a body sent is read back, so a sparse update stays a patch.
 */
import { num } from './amounts.ts';
import { valueAt } from './lists.ts';
import { isRecord } from './wire.ts';

export interface Codec {
  /** The platform's value of a SANDBOX value; undefined leaves the field out. */
  out(value: unknown): unknown;
  /** The SANDBOX value of what a body sent: undefined ignores it, null clears the field. None: the field is not written. */
  in?(value: unknown): unknown;
}

/** A value as it is both ways; a nested object sent without this field clears it. */
export const same: Codec = { out: (value) => value, in: (value) => value ?? null };

/** Rendered as it is, never written back (a name repeated in another field, a derived flag). */
export const shown: Codec = { out: (value) => value };

/** A codec that renders only, through `out`. */
export const outOnly = (out: Codec['out']): Codec => ({ out });

/** A codec's rendering only: a field the platform shows but does not take in a write (a computed total). */
export const renderOnly = (codec: Codec): Codec => ({ out: (value) => codec.out(value) });

/** An enumeration renamed: SANDBOX's value → the platform's, and back; a value the table lacks writes back as `fallback` (or is ignored). */
export function lookup(names: Readonly<Record<string, string>>, fallback?: string): Codec {
  const find = (value: unknown, from: 0 | 1): string | undefined => Object.entries(names).find((pair) => pair[from] === value)?.[1 - from];
  return { out: (value) => find(value, 0), in: (value) => find(value, 1) ?? fallback };
}

/** Text, a number as its digits, anything else ''. */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** Text as it is; written back as text (a number as its digits). */
export const text: Codec = { out: (value) => value, in: textOf };

/** A number as it is (a quantity); written back only when the platform sent a number. */
export const number: Codec = { out: (value) => value, in: (value) => (typeof value === 'number' ? value : undefined) };

/** Decimal text (a rate, a percentage) as a JSON number; written back as text, from a number only. */
export const decimal: Codec = {
  out: (value) => (value === undefined ? undefined : Number(value)),
  in: (value) => (typeof value === 'number' ? String(value) : undefined),
};

/** SANDBOX's money (decimal text) as a JSON number, exact through cents; written back as the platform sent it. */
export const money: Codec = {
  out: (value) => (value === undefined ? undefined : num(typeof value === 'string' ? value : undefined)),
  in: (value) => value ?? undefined,
};

/** A field the platform always has the same value in, whatever the record (rendered only). */
export const fixed = (value: unknown): readonly [null, Codec] => [null, { out: () => value }];

/** Platform path → the SANDBOX field, as it is (`same`) or through a codec; or a `fixed` value. */
export type FieldTable<R> = Readonly<Record<string, (keyof R & string) | readonly [keyof R & string, Codec] | readonly [null, Codec]>>;

function* fields<R>(table: FieldTable<R>): Generator<{ path: string[]; field: string | null; codec: Codec }> {
  for (const [path, spec] of Object.entries(table)) {
    const [field, codec] = typeof spec === 'string' ? [spec, same] : spec;
    yield { path: path.split('.'), field, codec };
  }
}

/** Sets a value at a path, making the objects on the way. */
function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const [step, ...rest] = path;
  if (step === undefined) return;
  if (rest.length === 0) {
    target[step] = value;
    return;
  }
  const inner = isRecord(target[step]) ? target[step] : {};
  target[step] = inner;
  setAt(inner, rest, value);
}

/** A SANDBOX record in the platform's shape: every field of the table whose codec gives a value. */
export function renderFields<R>(table: FieldTable<R>, record: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { path, field, codec } of fields(table)) {
    const value = codec.out(field === null ? undefined : Reflect.get(record, field));
    if (value !== undefined) setAt(out, path, value);
  }
  return out;
}

/**
 * A platform's write body as a SANDBOX write body: each writable field the body sent. A top-level field is sent when
 * the body has it; a nested one when the body has the object holding it.
 */
export function readFields<R>(table: FieldTable<R>, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { path, field, codec } of fields(table)) {
    const leaf = path.at(-1) ?? '';
    const parent = valueAt(body, path.slice(0, -1));
    if (field === null || codec.in === undefined || !isRecord(parent) || (path.length === 1 && !Object.hasOwn(parent, leaf))) continue;
    const value = codec.in(parent[leaf]);
    if (value !== undefined) out[field] = value;
  }
  return out;
}
