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

  constructor(roles: RoleAccounts) {
    this.#roles = roles;
  }

  nextId(type: UnifiedObjectType): string {
    const prefix = collectionOf(type).prefix;
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return platformIdFor(prefix, n);
  }

  push(type: UnifiedObjectType, data: NativeRecord): void {
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
