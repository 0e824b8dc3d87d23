/**
 * One QuickBooks Online company (realm) of the stand-in: its records per
 * entity, tombstones of deleted ones (for ChangeDataCapture), and the
 * bookkeeping QBO does on every write (Id, SyncToken, MetaData, totals).
 */
import {
  attachableFile,
  ENTITIES,
  fixture,
  generatedBills,
  isJson,
  MULTICURRENCY_ENTITIES,
  recordedRecords,
  recordKey,
  type Entity,
  type Json,
} from './fixtures.ts';
import type { ReportName } from './report.ts';
import { appliedTo } from './validate.ts';
import { tombstone, updatedAt } from '../../../packages/sandbox/src/simulators/quickbooks/query.ts';
import { bookkeeping, qboTime, voided } from '../../../packages/sandbox/src/simulators/quickbooks/shapes.ts';
import { recordsIn } from '../../../packages/sandbox/src/simulators/wire.ts';

export interface CompanyOptions {
  realmId: string;
  name?: string;
  /** Extra bills of the recorded shape (paging beyond 1,000). */
  generatedBills?: number;
  /** Multicurrency on (Preferences say so, and the company has the recorded CompanyCurrency and ExchangeRate records); off, as recorded, by default. */
  multiCurrency?: boolean;
  now: () => number;
}

const numericId = (record: Json): number => Number(record.Id);

const lines = (record: Json): Json[] => recordsIn(record.Line);

const cents = (value: unknown): number => (typeof value === 'number' ? Math.round(value * 100) : 0);

/** The bills a payment's lines apply to, with the amount applied to each. */
function linkedBills(payment: Json): { id: string; cents: number }[] {
  return lines(payment).flatMap((line) =>
    recordsIn(line.LinkedTxn)
      .filter((link) => link.TxnType === 'Bill')
      .map((link) => ({ id: String(link.TxnId), cents: cents(line.Amount) })),
  );
}

/** Name list entities: no transaction date. */
const NAME_LISTS: ReadonlySet<Entity> = new Set(['Customer', 'Employee', 'Item', 'Vendor', 'Class', 'Department', 'Term']);
export class Company {
  readonly realmId: string;
  readonly companyInfo: Json;
  readonly preferences: Json;
  /** The recorded reports (test/fixtures/quickbooks), by the name in their path. */
  readonly reports: Readonly<Record<ReportName, Json>>;
  private readonly records = new Map<Entity, Map<string, Json>>();
  private readonly tombstones = new Map<Entity, { Id: string; at: number }[]>();
  private nextId = 9001;
  private readonly now: () => number;

  constructor(options: CompanyOptions) {
    this.realmId = options.realmId;
    this.now = options.now;
    for (const entity of ENTITIES) this.records.set(entity, new Map(recordedRecords(entity).map((r) => [recordKey(entity, r), r])));
    for (const bill of generatedBills(options.generatedBills ?? 0)) this.table('Bill').set(String(bill.Id), bill);
    const info = fixture('companyinfo.json').CompanyInfo;
    this.companyInfo = isJson(info) ? info : {};
    if (options.name !== undefined) {
      this.companyInfo.CompanyName = options.name;
      this.companyInfo.LegalName = options.name;
    }
    const preferences = fixture('preferences.json').Preferences;
    this.preferences = isJson(preferences) ? preferences : {};
    if (options.multiCurrency === true && isJson(this.preferences.CurrencyPrefs)) this.preferences.CurrencyPrefs.MultiCurrencyEnabled = true;
    else for (const entity of MULTICURRENCY_ENTITIES) this.records.set(entity, new Map());
    this.reports = { BalanceSheet: fixture('balancesheet.json'), ProfitAndLoss: fixture('profitandloss.json'), CashFlow: fixture('cashflow.json') };
  }

  get name(): string {
    return typeof this.companyInfo.CompanyName === 'string' ? this.companyInfo.CompanyName : this.realmId;
  }

  /** Every entity has its table from the start (ENTITIES). */
  private table(entity: Entity): Map<string, Json> {
    return this.records.get(entity) ?? new Map<string, Json>();
  }

  /** Live records, ordered by Id (rates, which have none, by their key); copies. */
  list(entity: Entity): Json[] {
    const byKey = (a: Json, b: Json): number => (recordKey(entity, a) < recordKey(entity, b) ? -1 : 1);
    return [...this.table(entity).values()]
      .sort(entity === 'ExchangeRate' ? byKey : (a, b) => numericId(a) - numericId(b))
      .map((r) => structuredClone(r));
  }

  find(entity: Entity, id: string): Json | null {
    const record = this.table(entity).get(id);
    return record === undefined ? null : structuredClone(record);
  }

  /** The file of a live file attachable (deterministic from its Id and Size); null for notes and unknown ids. */
  file(id: string): { content: Buffer; contentType: string; fileName: string } | null {
    const record = this.table('Attachable').get(id);
    if (record === undefined || typeof record.FileName !== 'string' || record.FileName === '') return null;
    const contentType = typeof record.ContentType === 'string' ? record.ContentType : 'application/octet-stream';
    return { content: attachableFile(record), contentType, fileName: record.FileName };
  }

  /** Records changed at or after `since`, and tombstones of those deleted since. */
  changedSince(entity: Entity, since: number): Json[] {
    const live = this.list(entity).filter((r) => updatedAt(r) >= since);
    const gone = (this.tombstones.get(entity) ?? []).filter((t) => t.at >= since).map((t) => tombstone(t.Id, t.at));
    return [...live, ...gone];
  }

  /**
   * A sales receipt is paid in full; without DepositToAccountRef the money waits in Undeposited Funds (Account 4 of the
   * fixtures), and each line posts to its item's income account (QBO's SalesReceipt reference).
   */
  private deriveSale(record: Json): void {
    record.TotalAmt = lines(record).reduce((sum, line) => sum + cents(line.Amount), 0) / 100;
    record.Balance = 0;
    record.DepositToAccountRef ??= { value: '4', name: 'Undeposited Funds' };
    this.postToIncome(record);
  }

  /** Each sales line posts to its item's income account, which QBO shows as the line's ItemAccountRef. */
  private postToIncome(record: Json): void {
    for (const line of lines(record)) {
      const detail = isJson(line.SalesItemLineDetail) ? line.SalesItemLineDetail : null;
      const item = detail !== null && isJson(detail.ItemRef) ? this.find('Item', String(detail.ItemRef.value)) : null;
      if (detail !== null && item !== null && isJson(item.IncomeAccountRef)) detail.ItemAccountRef = item.IncomeAccountRef;
    }
  }

  /**
   * An invoice totals its item lines less its discount lines (QBO's sub-total line repeats them) plus its tax, and owes
   * that less what payments and credits took off it (kept across an update). A new one is in the home currency unless
   * it names another and due on its date without terms; lines post to their items' income accounts.
   */
  private deriveInvoice(record: Json, before: Json | null): void {
    const sign: Readonly<Record<string, number>> = { SalesItemLineDetail: 1, DiscountLineDetail: -1 };
    const tax = isJson(record.TxnTaxDetail) ? cents(record.TxnTaxDetail.TotalTax) : 0;
    const total = lines(record).reduce((sum, line) => sum + (sign[String(line.DetailType)] ?? 0) * cents(line.Amount), tax);
    const paid = before === null ? 0 : cents(before.TotalAmt) - cents(before.Balance);
    record.TotalAmt = total / 100;
    record.Balance = Math.max(0, total - paid) / 100;
    if (before === null) {
      record.CurrencyRef ??= { value: 'USD', name: 'United States Dollar' };
      record.DueDate ??= record.TxnDate;
    }
    this.postToIncome(record);
  }

  /** A payment's unapplied rest; a new one is deposited to Undeposited Funds (Account 4) unless it names an account. */
  private derivePayment(record: Json, before: Json | null): void {
    const applied = lines(record).reduce((sum, line) => sum + cents(line.Amount), 0);
    record.UnappliedAmt = Math.max(0, cents(record.TotalAmt) - applied) / 100;
    if (before === null) {
      record.DepositToAccountRef ??= { value: '4', name: 'Undeposited Funds' };
      record.CurrencyRef ??= { value: 'USD', name: 'United States Dollar' };
    }
  }

  /**
   * Moves a payment's applications from what it applied (`before`) to what it applies now (`after`; null: deleted):
   * each invoice's Balance and LinkedTxn change, and the invoice's SyncToken and LastUpdatedTime move on, as in QBO.
   */
  private settlePayment(paymentId: string, before: Json | null, after: Json | null): void {
    const invoiceIds = new Set(
      [before, after].flatMap((p) => lines(p ?? {}).flatMap((line) => recordsIn(line.LinkedTxn).map((l) => String(l.TxnId)))),
    );
    for (const id of invoiceIds) {
      const invoice = this.table('Invoice').get(id);
      if (invoice === undefined) continue;
      const change = appliedTo(after, id) - appliedTo(before, id);
      if (change === 0 && after !== null) continue;
      invoice.Balance = (cents(invoice.Balance) - change) / 100;
      const others = recordsIn(invoice.LinkedTxn).filter((l) => !(l.TxnType === 'Payment' && l.TxnId === paymentId));
      invoice.LinkedTxn = appliedTo(after, id) > 0 ? [...others, { TxnId: paymentId, TxnType: 'Payment' }] : others;
      invoice.SyncToken = String(Number(invoice.SyncToken ?? 0) + 1);
      invoice.MetaData = { ...(isJson(invoice.MetaData) ? invoice.MetaData : {}), LastUpdatedTime: qboTime(this.now()) };
    }
  }

  /**
   * A bill's Balance after a bill payment that links it was written, changed, voided or deleted: its total less what
   * the company's live bill payments apply to it (a voided one has no lines).
   */
  private settle(entity: Entity, payments: readonly Json[]): void {
    if (entity !== 'BillPayment') return;
    const billIds = new Set(payments.flatMap((payment) => linkedBills(payment).map((link) => link.id)));
    const applied = this.list('BillPayment').flatMap(linkedBills);
    for (const id of billIds) {
      const bill = this.table('Bill').get(id);
      if (bill === undefined) continue;
      const paid = applied.filter((link) => link.id === id).reduce((sum, link) => sum + link.cents, 0);
      bill.Balance = Math.max(0, cents(bill.TotalAmt) - paid) / 100;
    }
  }

  /** QBO's derived fields of a written record. */
  private derive(entity: Entity, record: Json, before: Json | null): void {
    if (entity === 'Bill' || entity === 'VendorCredit') {
      const total = lines(record).reduce((sum, line) => sum + cents(line.Amount), 0);
      const paid = before === null ? 0 : cents(before.TotalAmt) - cents(before.Balance);
      record.TotalAmt = total / 100;
      record.Balance = Math.max(0, total - paid) / 100;
    }
    // A Purchase is paid at once: its total is its lines', with no open balance.
    if (entity === 'Purchase') record.TotalAmt = lines(record).reduce((sum, line) => sum + cents(line.Amount), 0) / 100;
    if (entity === 'SalesReceipt') this.deriveSale(record);
    if (entity === 'Invoice') this.deriveInvoice(record, before);
    if (entity === 'Payment') this.derivePayment(record, before);
    if (entity === 'JournalEntry') {
      const debits = lines(record).filter((line) => isJson(line.JournalEntryLineDetail) && line.JournalEntryLineDetail.PostingType === 'Debit');
      record.TotalAmt = debits.reduce((sum, line) => sum + cents(line.Amount), 0) / 100;
    }
    if (entity === 'Customer' || entity === 'Vendor') {
      record.Active ??= true;
      record.Balance ??= 0;
    }
    if (entity === 'Customer') {
      record.FullyQualifiedName = record.DisplayName;
      record.BalanceWithJobs ??= 0;
      if (isJson(record.ParentRef)) {
        record.Job = true;
        record.Level = 1;
      }
    }
    if (entity === 'Class' || entity === 'Department' || entity === 'Term') {
      record.Active ??= true;
      if (entity === 'Term') record.Type ??= 'STANDARD';
      else record.FullyQualifiedName = record.Name;
    }
    // QBO numbers the lines of a transaction.
    lines(record).forEach((line, i) => {
      if (typeof line.Id !== 'string' && line.DetailType !== 'SubTotalLineDetail') line.Id = String(i + 1);
    });
    // Transactions and names are in the home currency unless they say otherwise.
    if (
      record.CurrencyRef === undefined &&
      ['Customer', 'Vendor', 'Bill', 'BillPayment', 'VendorCredit', 'Purchase', 'JournalEntry', 'SalesReceipt'].includes(entity)
    )
      record.CurrencyRef = { value: 'USD', name: 'United States Dollar' };
  }

  insert(entity: Entity, body: Json): Json {
    const record: Json = { ...structuredClone(body), ...bookkeeping(String(this.nextId++), 0, this.now(), this.now()) };
    if (record.TxnDate === undefined && !NAME_LISTS.has(entity)) record.TxnDate = qboTime(this.now()).slice(0, 10);
    this.derive(entity, record, null);
    this.table(entity).set(String(record.Id), record);
    if (entity === 'Payment') this.settlePayment(String(record.Id), null, record);
    this.settle(entity, [record]);
    return structuredClone(record);
  }

  /** Stores a new version of a record: SyncToken and LastUpdatedTime move on. */
  replace(entity: Entity, record: Json): Json {
    const before = this.table(entity).get(String(record.Id)) ?? null;
    const next = structuredClone(record);
    const created = before !== null && isJson(before.MetaData) ? before.MetaData.CreateTime : undefined;
    next.SyncToken = String(Number(before?.SyncToken ?? record.SyncToken ?? 0) + 1);
    next.MetaData = { CreateTime: created ?? qboTime(this.now()), LastUpdatedTime: qboTime(this.now()) };
    next.domain = 'QBO';
    next.sparse = false;
    this.derive(entity, next, before);
    this.table(entity).set(String(next.Id), next);
    if (entity === 'Payment') this.settlePayment(String(next.Id), before, next);
    this.settle(entity, before === null ? [next] : [before, next]);
    return structuredClone(next);
  }

  remove(entity: Entity, id: string): void {
    const before = this.table(entity).get(id);
    if (before === undefined || !this.table(entity).delete(id)) throw new Error(`no ${entity} ${id} in realm ${this.realmId}`);
    if (entity === 'Payment') this.settlePayment(id, before, null);
    this.settle(entity, [before]);
    const list = this.tombstones.get(entity) ?? [];
    list.push({ Id: id, at: this.now() });
    this.tombstones.set(entity, list);
  }

  /**
   * A rate set in QBO (what POST /exchangerate does, as a test control): the rate of its currency on its date is
   * created or replaced, into the home currency unless it names another; SyncToken and LastUpdatedTime move on.
   */
  setExchangeRate(rate: { SourceCurrencyCode: string; AsOfDate: string; Rate: number; TargetCurrencyCode?: string }): Json {
    const home =
      isJson(this.preferences.CurrencyPrefs) && isJson(this.preferences.CurrencyPrefs.HomeCurrency)
        ? this.preferences.CurrencyPrefs.HomeCurrency.value
        : 'USD';
    const record: Json = { TargetCurrencyCode: home, ...rate };
    const before = this.table('ExchangeRate').get(recordKey('ExchangeRate', record));
    Object.assign(record, { SyncToken: String(Number(before?.SyncToken ?? -1) + 1), MetaData: { LastUpdatedTime: qboTime(this.now()) } });
    this.table('ExchangeRate').set(recordKey('ExchangeRate', record), record);
    return structuredClone(record);
  }

  /** A change made in QBO itself (by a user of the company), as a test control. */
  edit(entity: Entity, id: string, change: (record: Json) => void): Json {
    const record = this.find(entity, id);
    if (record === null) throw new Error(`no ${entity} ${id} in realm ${this.realmId}`);
    change(record);
    return this.replace(entity, record);
  }

  /** QBO's void: amounts zeroed, lines cleared, "Voided" in front of the memo. */
  void(entity: Entity, id: string): Json {
    return this.edit(entity, id, (record) => Object.assign(record, voided(record, record.PrivateNote)));
  }
}
