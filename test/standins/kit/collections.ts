/**
 * A stand-in's records, whatever the platform: collections of JSON records keyed by their id field (in the order
 * added), what list endpoints share (records changed since a time, numbered pages), and a clock that never gives the
 * same millisecond twice, so every change has an update time of its own.
 */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A record field as text ('' for anything that is not a string or number). */
export const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

export class RecordStore<C extends string> {
  private readonly maps = new Map<C, Map<string, Json>>();
  readonly idFields: Readonly<Record<C, string>>;

  constructor(idFields: Readonly<Record<C, string>>, seed: Readonly<Record<C, readonly Json[]>>) {
    this.idFields = idFields;
    for (const collection of Object.keys(idFields) as C[]) {
      this.maps.set(collection, new Map());
      for (const record of seed[collection]) this.put(collection, record);
    }
  }

  private map(collection: C): Map<string, Json> {
    const map = this.maps.get(collection);
    if (map === undefined) throw new Error(`no collection ${collection}`);
    return map;
  }

  /** The live records (not copies). */
  all(collection: C): Json[] {
    return [...this.map(collection).values()];
  }

  get(collection: C, id: string): Json | undefined {
    return this.map(collection).get(id);
  }

  has(collection: C, id: string): boolean {
    return this.map(collection).has(id);
  }

  size(collection: C): number {
    return this.map(collection).size;
  }

  /** Takes a record out, as if deleted outright on the platform (gone, not flagged); the record, to put back. */
  remove(collection: C, id: string): Json | undefined {
    const record = this.get(collection, id);
    this.map(collection).delete(id);
    return record;
  }

  /** Adds or replaces a record, under the value of its id field. */
  put(collection: C, record: Json): void {
    this.map(collection).set(str(record[this.idFields[collection]]), record);
  }
}

/** Records changed at or after `since` (an HTTP date or ISO instant; none: all); records without a time stay in. */
export function changedSince<R>(records: readonly R[], since: string | undefined, changedAt: (record: R) => number | null): R[] {
  if (since === undefined) return [...records];
  const from = Date.parse(since);
  return records.filter((record) => (changedAt(record) ?? Number.POSITIVE_INFINITY) >= from);
}

/** Page `page` (from 1; below 1 is the first) of `size` records. */
export function pageOf<R>(records: readonly R[], page: number, size: number): R[] {
  const n = Math.max(1, page);
  return records.slice((n - 1) * size, n * size);
}

/** Now in epoch ms, but never twice the same millisecond (two changes in one millisecond still come in order). */
export class MonotonicClock {
  private last = 0;

  now(): number {
    this.last = Math.max(Date.now(), this.last + 1);
    return this.last;
  }
}
