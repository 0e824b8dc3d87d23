/**
 * A unit of work on one account's books, inside the account's lock: load
 * records, change them, and flush once. Flushing posts the ledger effect of
 * every changed document to account balances and balance sheets, gives each
 * change its sequence number, writes records and change log, and moves the
 * account's clock — all in the caller's transaction.
 */
import type { PoolClient } from 'pg';
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import { isPostingType, postingsOf, type Posting } from '../books.ts';
import { businessDateOf, collectionOf, lookupOf, platformIdFor } from '../collections.ts';
import { ROLES } from '../generator/chart.ts';
import {
  PROFIT_AND_LOSS,
  addTo,
  balanceSheetId,
  balancesOfSheet,
  buildBalanceSheet,
  monthEnd,
  monthOf,
  monthStart,
  naturalCents,
  nextMonth,
} from '../ledger.ts';
import { formatCents, parseCents } from '../money.ts';
import type { NativeOf, NativeRecord, NativeType } from '../native.ts';
import type { AccountState } from './state.ts';
import {
  buildCashFlow,
  buildIncomeStatement,
  cashFlowId,
  incomeStatementId,
  isCash,
  movementsOfCashFlow,
  movementsOfIncomeStatement,
} from '../statements.ts';

interface Entry {
  type: UnifiedObjectType;
  id: string;
  /** Current data; null once deleted. */
  data: NativeRecord | null;
  /** As loaded; null for records created in this unit. */
  original: NativeRecord | null;
  changed: boolean;
}

export interface FlushSummary {
  created: number;
  updated: number;
  deleted: number;
  lastSeq: number;
}

const key = (type: string, id: string): string => `${type}\u0000${id}`;
const ROLE_ACCOUNTS = { AP: ROLES.AP, AR: ROLES.AR, UndepositedFunds: ROLES.UndepositedFunds, InputTax: ROLES.InputTax, SalesTax: ROLES.SalesTax };

export class Unit {
  readonly client: PoolClient;
  readonly state: AccountState;
  /** Timestamp of every change in this unit (the platform's clock). */
  readonly at: string;
  readonly #entries = new Map<string, Entry>();
  readonly #counters: Record<string, number>;

  constructor(client: PoolClient, state: AccountState, now: number) {
    this.client = client;
    this.state = state;
    this.at = new Date(now).toISOString();
    this.#counters = { ...state.counters };
  }

  /** Loads live records not yet in the unit. */
  async load(type: UnifiedObjectType, ids: readonly string[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.#entries.has(key(type, id)));
    if (missing.length === 0) return;
    const result = await this.client.query<{ platform_id: string; data: NativeRecord }>(
      `SELECT platform_id, data FROM sandbox_platform.records
       WHERE account_id = $1 AND object_type = $2 AND platform_id = ANY($3::text[]) AND deleted_at IS NULL`,
      [this.state.id, type, missing],
    );
    for (const row of result.rows) this.#remember(type, row.platform_id, row.data);
  }

  #remember(type: UnifiedObjectType, id: string, data: NativeRecord): void {
    // Kept twice: the original tells the ledger what the record posted before it changed.
    this.#entries.set(key(type, id), { type, id, data, original: structuredClone(data), changed: false });
  }

  /** A live record already loaded (or created) in this unit. */
  peek<K extends NativeType>(type: K, id: string | undefined): NativeOf[K] | null {
    if (id === undefined) return null;
    const data = this.#entries.get(key(type, id))?.data ?? null;
    // Entries of a type only ever hold that type's native records.
    return data as NativeOf[K] | null;
  }

  async get<K extends NativeType>(type: K, id: string | undefined): Promise<NativeOf[K] | null> {
    if (id === undefined || id === '') return null;
    await this.load(type, [id]);
    return this.peek(type, id);
  }

  /** Every live record of a (small) type, with this unit's changes applied. */
  async all<K extends NativeType>(type: K): Promise<NativeOf[K][]> {
    const result = await this.client.query<{ platform_id: string; data: NativeRecord }>(
      `SELECT platform_id, data FROM sandbox_platform.records WHERE account_id = $1 AND object_type = $2 AND deleted_at IS NULL ORDER BY platform_id`,
      [this.state.id, type],
    );
    for (const row of result.rows) if (!this.#entries.has(key(type, row.platform_id))) this.#remember(type, row.platform_id, row.data);
    const live: NativeOf[K][] = [];
    for (const entry of this.#entries.values()) if (entry.type === type && entry.data !== null) live.push(entry.data as NativeOf[K]);
    return live.sort((a, b) => (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0));
  }

  /** Id of another live record whose text field equals `value` (uniqueness checks), or null. */
  async findBy(type: UnifiedObjectType, field: string, value: string, exceptId: string | null): Promise<string | null> {
    for (const entry of this.#entries.values()) {
      if (entry.type === type && entry.data !== null && entry.id !== exceptId && entry.data[field] === value) return entry.id;
    }
    const spec = collectionOf(type);
    // The platform's unique fields are indexed; anything else is a scan (rare: reference checks).
    const result =
      spec.uniqueField === field
        ? await this.client.query<{ platform_id: string }>(
            `SELECT platform_id FROM sandbox_platform.records
         WHERE account_id = $1 AND object_type = $2 AND lookup = $3 AND deleted_at IS NULL LIMIT 5`,
            [this.state.id, type, value],
          )
        : await this.client.query<{ platform_id: string }>(
            `SELECT platform_id FROM sandbox_platform.records
         WHERE account_id = $1 AND object_type = $2 AND deleted_at IS NULL AND data->>$3 = $4 LIMIT 5`,
            [this.state.id, type, field, value],
          );
    for (const row of result.rows) {
      if (row.platform_id === exceptId) continue;
      // Changed in this unit: the loaded copy decides, not the stored one.
      const cached = this.#entries.get(key(type, row.platform_id));
      if (cached !== undefined && cached.data?.[field] !== value) continue;
      return row.platform_id;
    }
    return null;
  }

  /** Another live record of `types` whose JSON mentions `id` (reference checks before a delete). */
  async referencedBy(types: readonly UnifiedObjectType[], id: string): Promise<string | null> {
    const result = await this.client.query<{ platform_id: string }>(
      `SELECT platform_id FROM sandbox_platform.records
       WHERE account_id = $1 AND object_type = ANY($2::text[]) AND deleted_at IS NULL AND platform_id <> $4 AND strpos(data::text, $3) > 0 LIMIT 1`,
      [this.state.id, types, JSON.stringify(id), id],
    );
    return result.rows[0]?.platform_id ?? null;
  }

  nextId(type: UnifiedObjectType): string {
    return this.nextNumbered(collectionOf(type).prefix);
  }

  /** Next id under a prefix of its own (things that are not records, e.g. feed batches); saved with the other counters. */
  nextNumbered(prefix: string): string {
    const n = (this.#counters[prefix] ?? 0) + 1;
    this.#counters[prefix] = n;
    return platformIdFor(prefix, n);
  }

  create(type: UnifiedObjectType, data: NativeRecord): void {
    data.CreatedAt = this.at;
    data.UpdatedAt = this.at;
    this.#entries.set(key(type, data.Id), { type, id: data.Id, data, original: null, changed: true });
  }

  /** Marks a loaded record changed (after mutating it in place). */
  touch(type: UnifiedObjectType, data: NativeRecord): void {
    const entry = this.#entries.get(key(type, data.Id));
    if (entry?.data == null) throw new Error(`touch of ${type} ${data.Id}, which the unit has not loaded`);
    entry.data = data;
    data.UpdatedAt = this.at;
    entry.changed = true;
  }

  remove(type: UnifiedObjectType, id: string): void {
    const entry = this.#entries.get(key(type, id));
    if (entry?.data == null) throw new Error(`delete of ${type} ${id}, which the unit has not loaded`);
    entry.data = null;
    entry.changed = true;
  }

  get changes(): number {
    let n = 0;
    for (const entry of this.#entries.values()) if (entry.changed) n++;
    return n;
  }

  /** Ledger, sequence numbers, records, change log and account state, in that order. */
  async flush(tick: number | null): Promise<FlushSummary> {
    await this.#post();
    const changed = [...this.#entries.values()].filter((e) => e.changed && !(e.original === null && e.data === null));
    let seq = this.state.seq;
    const rows: unknown[] = [];
    const log: unknown[] = [];
    const summary: FlushSummary = { created: 0, updated: 0, deleted: 0, lastSeq: seq };
    for (const entry of changed) {
      seq++;
      const op = entry.data === null ? 'deleted' : entry.original === null ? 'created' : 'updated';
      summary[op]++;
      const data = entry.data ?? entry.original;
      if (data === null) continue;
      const spec = collectionOf(entry.type);
      rows.push({
        t: entry.type,
        p: entry.id,
        d: data,
        b: businessDateOf(spec, data),
        k: lookupOf(spec, data),
        s: seq,
        u: this.at,
        x: entry.data === null ? this.at : null,
      });
      log.push({ s: seq, t: entry.type, p: entry.id, o: op });
    }
    summary.lastSeq = seq;
    if (rows.length > 0) {
      await this.client.query(
        `INSERT INTO sandbox_platform.records (account_id, object_type, platform_id, data, business_date, lookup, seq, updated_at, deleted_at)
         SELECT $1, x.t, x.p, x.d, x.b, x.k, x.s, x.u, x.x
         FROM json_to_recordset($2::json) AS x(t text, p text, d json, b date, k text, s bigint, u timestamptz, x timestamptz)
         ON CONFLICT (account_id, object_type, platform_id) DO UPDATE SET data = EXCLUDED.data, business_date = EXCLUDED.business_date, lookup = EXCLUDED.lookup,
           seq = EXCLUDED.seq, version = sandbox_platform.records.version + 1, updated_at = EXCLUDED.updated_at, deleted_at = EXCLUDED.deleted_at`,
        [this.state.id, JSON.stringify(rows)],
      );
      await this.client.query(
        `INSERT INTO sandbox_platform.change_log (account_id, seq, tick, object_type, platform_id, op, at)
         SELECT $1, x.s, $3, x.t, x.p, x.o, $4 FROM json_to_recordset($2::json) AS x(s bigint, t text, p text, o text)`,
        [this.state.id, JSON.stringify(log), tick ?? this.state.tick, this.at],
      );
    }
    await this.client.query(
      `UPDATE sandbox_platform.accounts_state SET seq = $2, counters = $3, tick = COALESCE($4, tick),
         last_tick_at = CASE WHEN $4::integer IS NULL THEN last_tick_at ELSE $5::timestamptz END WHERE id = $1`,
      [this.state.id, seq, JSON.stringify(this.#counters), tick, this.at],
    );
    this.state.seq = seq;
    for (const entry of changed) {
      entry.changed = false;
      entry.original = entry.data === null ? null : structuredClone(entry.data);
    }
    return summary;
  }

  /** What the changed documents post, net of what they posted before, applied to balances, sheets and statements. */
  async #post(): Promise<void> {
    const removed: Posting[] = [];
    const added: Posting[] = [];
    for (const entry of this.#entries.values()) {
      if (!entry.changed || !isPostingType(entry.type)) continue;
      if (entry.original !== null) removed.push(...postingsOf(entry.type, entry.original, ROLE_ACCOUNTS));
      if (entry.data !== null) added.push(...postingsOf(entry.type, entry.data, ROLE_ACCOUNTS));
    }
    const deltas: Posting[] = [...removed.map((p) => ({ ...p, cents: -p.cents })), ...added];
    const byAccount = new Map<string, number>();
    // By account and month: a posting moved to another month changes the statements of both.
    const byMonth = new Map<string, number>();
    for (const p of deltas) {
      addTo(byAccount, p.accountId, p.cents);
      addTo(byMonth, `${p.accountId} ${monthOf(p.date)}`, p.cents);
    }
    if ([...byMonth.values()].every((c) => c === 0)) return;

    const accounts = await this.all('account');
    const classOf = new Map(accounts.map((a) => [a.Id, a.Class]));
    for (const account of accounts) {
      const delta = byAccount.get(account.Id) ?? 0;
      if (delta === 0) continue;
      const debit = naturalCents(account.Class, parseCents(account.Balance));
      account.Balance = formatCents(naturalCents(account.Class, debit + delta));
      this.touch('account', account);
    }
    const sheets = await this.all('balance_sheet');
    const last = sheets.reduce<NativeOf['balance_sheet'] | null>((a, b) => (a === null || b.PeriodEnd > a.PeriodEnd ? b : a), null);
    const latestPosting = deltas.reduce((d, p) => (p.date > d ? p.date : d), '');
    if (last !== null) {
      // Months the clock has reached get their own sheet, starting from the last one.
      for (let month = nextMonth(monthOf(last.PeriodEnd)); month <= monthOf(latestPosting); month = nextMonth(month)) {
        const sheet = buildBalanceSheet({
          id: balanceSheetId(month),
          periodStart: monthStart(month),
          periodEnd: monthEnd(month),
          currencyCode: last.CurrencyCode,
          createdAt: this.at,
          updatedAt: this.at,
          accounts,
          balances: balancesOfSheet(last),
        });
        this.create('balance_sheet', sheet);
        sheets.push(sheet);
      }
    }
    for (const sheet of sheets) {
      const relevant = deltas.filter((p) => p.date <= sheet.PeriodEnd && p.cents !== 0);
      if (relevant.length === 0) continue;
      const balances = balancesOfSheet(sheet);
      for (const p of relevant) {
        const cls = classOf.get(p.accountId);
        addTo(balances, cls === 'Revenue' || cls === 'Expense' ? PROFIT_AND_LOSS : p.accountId, p.cents);
      }
      const rebuilt = buildBalanceSheet({
        id: sheet.Id,
        periodStart: sheet.PeriodStart,
        periodEnd: sheet.PeriodEnd,
        currencyCode: sheet.CurrencyCode,
        createdAt: sheet.CreatedAt,
        updatedAt: this.at,
        accounts,
        balances,
      });
      Object.assign(sheet, rebuilt);
      if (this.peek('balance_sheet', sheet.Id) !== null) this.touch('balance_sheet', sheet);
    }
    await this.#postStatements({ deltas, removed, added, latestPosting, accounts });
  }

  /** The same change on the income statements and cash flows: the month's movements, later months' cash. */
  async #postStatements(change: {
    deltas: Posting[];
    removed: Posting[];
    added: Posting[];
    latestPosting: string;
    accounts: NativeOf['account'][];
  }): Promise<void> {
    const { deltas, accounts } = change;
    const cash = new Set(accounts.filter(isCash).map((a) => a.Id));
    const profitAndLoss = new Set(accounts.filter((a) => a.Class === 'Revenue' || a.Class === 'Expense').map((a) => a.Id));
    const incomes = await this.all('income_statement');
    const flows = await this.all('cash_flow_statement');
    const lastIncome = latest(incomes);
    const lastFlow = latest(flows);
    for (
      let month = lastIncome === null ? '9999-12' : nextMonth(monthOf(lastIncome.PeriodEnd));
      month <= monthOf(change.latestPosting);
      month = nextMonth(month)
    ) {
      const statement = buildIncomeStatement({
        id: incomeStatementId(month),
        ...this.#period(month, lastIncome?.CurrencyCode ?? ''),
        accounts,
        movements: new Map(),
      });
      this.create('income_statement', statement);
      incomes.push(statement);
    }
    for (
      let month = lastFlow === null ? '9999-12' : nextMonth(monthOf(lastFlow.PeriodEnd));
      month <= monthOf(change.latestPosting);
      month = nextMonth(month)
    ) {
      const statement = buildCashFlow({
        id: cashFlowId(month),
        ...this.#period(month, lastFlow?.CurrencyCode ?? ''),
        accounts,
        movements: new Map(),
        startingCents: parseCents(lastFlow?.EndingBalance ?? '0'),
        cashInCents: 0,
        cashOutCents: 0,
      });
      this.create('cash_flow_statement', statement);
      flows.push(statement);
    }
    const inMonth = (p: Posting, start: string, end: string): boolean => p.cents !== 0 && p.date >= start && p.date <= end;
    for (const statement of incomes) {
      const relevant = deltas.filter((p) => inMonth(p, statement.PeriodStart, statement.PeriodEnd) && profitAndLoss.has(p.accountId));
      if (relevant.length === 0) continue;
      const movements = movementsOfIncomeStatement(statement);
      for (const p of relevant) addTo(movements, p.accountId, p.cents);
      Object.assign(
        statement,
        buildIncomeStatement({
          ...this.#period(monthOf(statement.PeriodEnd), statement.CurrencyCode),
          id: statement.Id,
          createdAt: statement.CreatedAt,
          accounts,
          movements,
        }),
      );
      if (this.peek('income_statement', statement.Id) !== null) this.touch('income_statement', statement);
    }
    for (const statement of flows) {
      const before = deltas.filter((p) => p.cents !== 0 && p.date < statement.PeriodStart && cash.has(p.accountId));
      const relevant = deltas.filter((p) => inMonth(p, statement.PeriodStart, statement.PeriodEnd));
      if (before.length === 0 && relevant.length === 0) continue;
      const movements = movementsOfCashFlow(statement);
      for (const p of relevant) if (!cash.has(p.accountId)) addTo(movements, profitAndLoss.has(p.accountId) ? PROFIT_AND_LOSS : p.accountId, p.cents);
      // Gross flows of cash: what a changed document received or paid before comes off, what it does now goes on.
      const cashIn = (postings: Posting[]): number =>
        postings
          .filter((p) => cash.has(p.accountId) && p.cents > 0 && inMonth(p, statement.PeriodStart, statement.PeriodEnd))
          .reduce((sum, p) => sum + p.cents, 0);
      const cashOut = (postings: Posting[]): number =>
        postings
          .filter((p) => cash.has(p.accountId) && p.cents < 0 && inMonth(p, statement.PeriodStart, statement.PeriodEnd))
          .reduce((sum, p) => sum - p.cents, 0);
      Object.assign(
        statement,
        buildCashFlow({
          ...this.#period(monthOf(statement.PeriodEnd), statement.CurrencyCode),
          id: statement.Id,
          createdAt: statement.CreatedAt,
          accounts,
          movements,
          startingCents: parseCents(statement.StartingBalance) + before.reduce((sum, p) => sum + p.cents, 0),
          cashInCents: parseCents(statement.CashIn) - cashIn(change.removed) + cashIn(change.added),
          cashOutCents: parseCents(statement.CashOut) - cashOut(change.removed) + cashOut(change.added),
        }),
      );
      if (this.peek('cash_flow_statement', statement.Id) !== null) this.touch('cash_flow_statement', statement);
    }
  }

  #period(
    month: string,
    currencyCode: string,
  ): { periodStart: string; periodEnd: string; currencyCode: string; createdAt: string; updatedAt: string } {
    return { periodStart: monthStart(month), periodEnd: monthEnd(month), currencyCode, createdAt: this.at, updatedAt: this.at };
  }
}

function latest<T extends { PeriodEnd: string }>(statements: readonly T[]): T | null {
  return statements.reduce<T | null>((a, b) => (a === null || b.PeriodEnd > a.PeriodEnd ? b : a), null);
}
