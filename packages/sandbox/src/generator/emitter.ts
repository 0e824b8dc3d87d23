/** Collects generated records in batches, hands out platform ids and keeps the ledger. */
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import { isPostingType, postingsOf, type RoleAccounts } from '../books.ts';
import { businessDateOf, collectionOf, platformIdFor } from '../collections.ts';
import { addTo, monthOf, type Balances } from '../ledger.ts';
import type { NativeRecord } from '../native.ts';

export interface GeneratedRecord {
  type: UnifiedObjectType;
  id: string;
  data: NativeRecord;
  /** Business date (YYYY-MM-DD) for windows, or null. */
  date: string | null;
}

function monthEntry(months: Map<string, Balances>, month: string): Balances {
  let balances = months.get(month);
  if (balances === undefined) {
    balances = new Map();
    months.set(month, balances);
  }
  return balances;
}

/** A timestamp as the generator writes them (dates.ts stamp, or an instant's toISOString). */
const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Moves every timestamp of a record (nested ones too) that is later than `latest` back to `latest`, in place. The
 * generator draws times of day across asOf's whole day; when the books are made before that day is over, what it drew
 * for later happened, as far as the books say, at the moment they were made. Clamping keeps every order between two
 * stamps (a ≤ b stays a ≤ b) and is idempotent, so a stamp copied from a record already pushed stays as it was.
 */
export function clampStamps(value: unknown, latest: string): void {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      if (typeof item === 'string') {
        if (item > latest && STAMP.test(item)) value[i] = latest;
      } else clampStamps(item, latest);
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const fields = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(fields)) {
    if (typeof item === 'string') {
      if (item > latest && STAMP.test(item)) fields[key] = latest;
    } else clampStamps(item, latest);
  }
}

export class Emitter {
  readonly counters = new Map<string, number>();
  readonly counts = new Map<UnifiedObjectType, number>();
  /** Debit-positive movements per month, per account. */
  readonly monthly = new Map<string, Balances>();
  /** Debit postings per month, per account: with `monthly`, the gross flows in and out of an account. */
  readonly monthlyDebits = new Map<string, Balances>();
  buffer: GeneratedRecord[] = [];
  #total = 0;
  readonly #roles: RoleAccounts;
  /** No timestamp of a pushed record is later than this (ISO, or null for no bound): see clampStamps. */
  readonly #latest: string | null;

  constructor(roles: RoleAccounts, latest: string | null = null) {
    this.#roles = roles;
    this.#latest = latest;
  }

  nextId(type: UnifiedObjectType): string {
    const prefix = collectionOf(type).prefix;
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return platformIdFor(prefix, n);
  }

  push(type: UnifiedObjectType, data: NativeRecord): void {
    if (this.#latest !== null) clampStamps(data, this.#latest);
    this.buffer.push({ type, id: data.Id, data, date: businessDateOf(collectionOf(type), data) });
    this.counts.set(type, (this.counts.get(type) ?? 0) + 1);
    this.#total++;
    if (isPostingType(type)) {
      for (const posting of postingsOf(type, data, this.#roles)) {
        const month = monthOf(posting.date);
        addTo(monthEntry(this.monthly, month), posting.accountId, posting.cents);
        if (posting.cents > 0) addTo(monthEntry(this.monthlyDebits, month), posting.accountId, posting.cents);
      }
    }
  }

  total(): number {
    return this.#total;
  }

  take(): GeneratedRecord[] {
    const batch = this.buffer;
    this.buffer = [];
    return batch;
  }
}
