/**
 * Bill writes for fault tests: creates and updates of one SANDBOX connection,
 * accepted as the API accepts them (acceptWrite: the job row and its queue
 * entry in one transaction), and the exact check of how they ended:
 *
 *  - every job is settled (completed or failed), none pending or in_progress;
 *  - no memo of the run is on the platform twice; a completed create is there
 *    exactly once (a failed one at most once), stored exactly once under the
 *    job's result_id, announced by exactly one BILL_CREATED with its job_id
 *    and never by a sync (a BILL_CREATED without job_id);
 *  - a completed update's memo is on the platform, announced by exactly one
 *    BILL_UPDATED with its job_id;
 *  - every settled job fired exactly one JOB_COMPLETED.
 *
 * The memos end in `-<run>`, so a run's bills are told apart from the books'.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from '../../src/db/pool.ts';
import type { JobSender } from '../../src/queue/sender.ts';
import type { Connector, ConnectorContext } from '../../src/platforms/connector.ts';
import type { Tenant } from '../../src/tenants/types.ts';
import { acceptWrite } from '../../src/writes/accept.ts';
import { platformBills } from './books.ts';

export type BillWrite = { kind: 'create'; memo: string } | { kind: 'update'; memo: string; billId: string; platformId: string };

export interface BillJob {
  id: string;
  operation: string;
  status: string;
  indeterminate: boolean;
  attempts: number;
  result_id: string | null;
  response: unknown;
}

export interface BillWritesOutcome {
  /** Everything that contradicts the rules above (failed jobs are listed in `failed`, not here). */
  problems: string[];
  jobs: BillJob[];
  failed: { job: BillJob; write: BillWrite }[];
  /** One line for the test's log. */
  summary: string;
}

type Json = Record<string, unknown>;

export class BillWrites {
  readonly run = randomBytes(4).toString('hex');
  /** Job id → the write it carries. */
  readonly planned = new Map<string, BillWrite>();
  private vendors: string[] = [];
  private accounts: string[] = [];
  private readonly today = new Date().toISOString().slice(0, 10);

  private readonly pool: Pool;
  private readonly jobs: JobSender;
  private readonly tenant: Tenant;
  private readonly connectionId: string;

  constructor(pool: Pool, jobs: JobSender, tenant: Tenant, connectionId: string) {
    this.pool = pool;
    this.jobs = jobs;
    this.tenant = tenant;
    this.connectionId = connectionId;
  }

  /**
   * `creates` new bills and `updates` memo changes of stored bills (open ones first), interleaved: the connection's
   * initial sync must have stored its vendors, expense accounts and bills.
   */
  async plan(creates: number, updates: number): Promise<BillWrite[]> {
    const ids = async (sql: string, params: unknown[] = []): Promise<{ id: string; platform_id: string }[]> =>
      (await this.pool.query<{ id: string; platform_id: string }>(sql, [this.connectionId, ...params])).rows;
    this.vendors = (
      await ids(`SELECT id, platform_id FROM records WHERE connection_id = $1 AND object_type = 'vendor' AND deleted_at IS NULL
      AND data->>'status' = 'active' ORDER BY platform_id LIMIT 5`)
    ).map((r) => r.id);
    this.accounts = (
      await ids(`SELECT id, platform_id FROM records WHERE connection_id = $1 AND object_type = 'account' AND deleted_at IS NULL
      AND data->>'account_type' = 'expense' AND data->>'status' = 'active' ORDER BY platform_id LIMIT 5`)
    ).map((r) => r.id);
    const targets = await ids(
      `SELECT id, platform_id FROM records WHERE connection_id = $1 AND object_type = 'bill' AND deleted_at IS NULL
      ORDER BY data->>'status' = 'open' DESC, platform_id LIMIT $2`,
      [updates],
    );
    if (this.vendors.length === 0 || this.accounts.length === 0 || targets.length < updates) {
      throw new Error(
        `the stored copy has ${this.vendors.length} vendors, ${this.accounts.length} expense accounts and ${targets.length} bills to update`,
      );
    }
    const writes: BillWrite[] = Array.from({ length: creates }, (_, n) => ({ kind: 'create', memo: `fault-${n}-${this.run}` }));
    targets.forEach((target, n) => {
      writes.splice(Math.floor(((n + 1) * writes.length) / (updates + 1)), 0, {
        kind: 'update',
        memo: `updated-${n}-${this.run}`,
        billId: target.id,
        platformId: target.platform_id,
      });
    });
    return writes;
  }

  /** Accepts one write (the nth: it picks the vendor, account and amount); its job id. */
  async accept(write: BillWrite, n: number): Promise<string> {
    const base = { tenant: this.tenant, connectionId: this.connectionId, objectType: 'bill', idempotencyKey: null } as const;
    const { job } =
      write.kind === 'create'
        ? await acceptWrite(this.pool, this.jobs, {
            ...base,
            operation: 'create',
            targetId: null,
            request: {
              method: 'POST',
              path: '/versioned/accounting/bills',
              body: {
                bill: {
                  vendor_id: this.vendors[n % this.vendors.length],
                  issue_date: this.today,
                  memo: write.memo,
                  line_items: [{ account_id: this.accounts[n % this.accounts.length], total_amount: 10 + n, description: `Fault line ${n}` }],
                },
              },
            },
          })
        : await acceptWrite(this.pool, this.jobs, {
            ...base,
            operation: 'update',
            targetId: write.billId,
            request: { method: 'PATCH', path: `/versioned/accounting/bills/${write.billId}`, body: { bill: { memo: write.memo } } },
          });
    this.planned.set(job.id, write);
    return job.id;
  }

  /** Jobs of the connection not completed or failed yet. */
  async open(): Promise<number> {
    const result = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM write_jobs WHERE connection_id = $1 AND status NOT IN ('completed', 'failed')`,
      [this.connectionId],
    );
    return result.rows[0]?.n ?? 0;
  }

  /** The exact check (see the header); `ctx` reads the platform (a context of the connection, never through a fault). */
  async check(connector: Connector, ctx: ConnectorContext): Promise<BillWritesOutcome> {
    const jobs = (
      await this.pool.query<BillJob>(
        `SELECT id, operation, status, indeterminate, attempts, result_id, response FROM write_jobs WHERE connection_id = $1 ORDER BY created_at`,
        [this.connectionId],
      )
    ).rows;
    const problems: string[] = [];
    const failed: { job: BillJob; write: BillWrite }[] = [];
    if (jobs.length !== this.planned.size) problems.push(`${jobs.length} write jobs, ${this.planned.size} accepted`);

    const suffix = `-${this.run}`;
    const bills = await platformBills(connector, ctx);
    const byMemo = new Map<string, string[]>();
    for (const bill of bills) if (bill.memo?.endsWith(suffix) === true) byMemo.set(bill.memo, [...(byMemo.get(bill.memo) ?? []), bill.platformId]);
    for (const [memo, ids] of byMemo) if (ids.length > 1) problems.push(`memo ${memo} is on ${ids.length} platform bills: ${ids.join(', ')}`);
    const memoOf = new Map(bills.map((b) => [b.platformId, b.memo]));

    const stored = await this.pool.query<{ id: string; memo: string | null }>(
      `SELECT id, data->>'memo' AS memo FROM records WHERE connection_id = $1 AND object_type = 'bill' AND deleted_at IS NULL`,
      [this.connectionId],
    );
    const storedByMemo = new Map<string, string[]>();
    for (const row of stored.rows) if (row.memo !== null) storedByMemo.set(row.memo, [...(storedByMemo.get(row.memo) ?? []), row.id]);

    const events = await this.pool.query<{ code: string; payload: Json }>(
      `SELECT code, payload FROM events WHERE connection_id = $1 AND code IN ('BILL_CREATED', 'BILL_UPDATED', 'JOB_COMPLETED')`,
      [this.connectionId],
    );
    const count = (map: Map<string, number>, key: string): void => {
      map.set(key, (map.get(key) ?? 0) + 1);
    };
    const created = new Map<string, number>();
    const updated = new Map<string, number>();
    const completed = new Map<string, number>();
    for (const event of events.rows) {
      const jobId = event.payload.job_id;
      const bill = event.payload.bill;
      const memo = typeof bill === 'object' && bill !== null && 'memo' in bill && typeof bill.memo === 'string' ? bill.memo : null;
      if (event.code === 'BILL_CREATED' && typeof jobId === 'string') count(created, jobId);
      if (event.code === 'BILL_CREATED' && jobId === undefined && memo?.endsWith(suffix) === true)
        problems.push(`a sync announced BILL_CREATED for the bill with memo ${memo}`);
      if (event.code === 'BILL_UPDATED' && typeof jobId === 'string') count(updated, jobId);
      const job = event.payload.job;
      if (event.code === 'JOB_COMPLETED' && typeof job === 'object' && job !== null && 'id' in job && typeof job.id === 'string')
        count(completed, job.id);
    }

    for (const job of jobs) {
      const write = this.planned.get(job.id);
      if (write === undefined) {
        problems.push(`job ${job.id} was not accepted by this test`);
        continue;
      }
      const where = `${job.operation} job ${job.id} (${write.memo}, ${job.status}, indeterminate ${String(job.indeterminate)}, attempts ${job.attempts})`;
      const settled = job.status === 'completed' || job.status === 'failed';
      if (!settled) problems.push(`${where} is not settled`);
      if ((completed.get(job.id) ?? 0) !== (settled ? 1 : 0)) problems.push(`${where}: ${completed.get(job.id) ?? 0} JOB_COMPLETED events`);
      if (job.status === 'failed') failed.push({ job, write });
      if (write.kind === 'update') {
        if (job.status !== 'completed') continue;
        const memo = memoOf.get(write.platformId);
        if (memo !== write.memo) problems.push(`${where}: platform bill ${write.platformId} has memo ${String(memo)}`);
        if ((updated.get(job.id) ?? 0) !== 1) problems.push(`${where}: ${updated.get(job.id) ?? 0} BILL_UPDATED events with its job_id`);
        continue;
      }
      const onPlatform = byMemo.get(write.memo)?.length ?? 0;
      if (job.status !== 'completed') {
        if (onPlatform > 1) problems.push(`${where}: on the platform ${onPlatform} times`);
        continue;
      }
      if (onPlatform !== 1) problems.push(`${where}: on the platform ${onPlatform} times`);
      const copies = storedByMemo.get(write.memo) ?? [];
      if (copies.length !== 1) problems.push(`${where}: ${copies.length} stored copies`);
      else if (copies[0] !== job.result_id) problems.push(`${where}: stored as ${copies[0] ?? ''} but result_id ${String(job.result_id)}`);
      if ((created.get(job.id) ?? 0) !== 1) problems.push(`${where}: ${created.get(job.id) ?? 0} BILL_CREATED events with its job_id`);
    }

    const n = (f: (j: BillJob) => boolean): number => jobs.filter(f).length;
    const summary =
      `${jobs.length} bill writes (${n((j) => j.operation === 'create')} creates): ${n((j) => j.status === 'completed')} completed, ` +
      `${failed.length} failed, ${n((j) => j.indeterminate)} indeterminate on a retry, ${n((j) => j.attempts > 1)} took more than one attempt ` +
      `(max ${Math.max(0, ...jobs.map((j) => j.attempts))})`;
    return { problems, jobs, failed, summary };
  }
}
