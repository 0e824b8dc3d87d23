/**
 * The work a fault test puts a worker process under, with its exact end
 * checks, on two SANDBOX connections of one tenant:
 *
 *  - A (`syncUser`): an initial sync, then incrementals, each after
 *    `advance(1)` of its books; when each completes, the stored copy equals
 *    the books and the sync fired exactly the entity events the change
 *    implies, none missing, none twice (like sync-crash.test.ts);
 *  - B (`writeUser`): its initial sync, then bill creates and updates
 *    accepted in waves (test/support/bill-writes.ts); at the end a last
 *    incremental sync (after the writes' own follow-up syncs), every sync run
 *    completed, B's stored copy equal to its books, and the writes' check.
 *
 * Anything that contradicts these goes to `problems`; a sync run that fails,
 * a dead worker (`alive` throws) or the deadline throw at once.
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConnectionRecord } from '../../src/connections/types.ts';
import type { Cipher } from '../../src/crypto/secrets.ts';
import type { Pool } from '../../src/db/pool.ts';
import type { JobSender } from '../../src/queue/sender.ts';
import type { ConnectorContext } from '../../src/platforms/connector.ts';
import { connectorContext } from '../../src/platforms/context.ts';
import type { SandboxPlugin } from '../../packages/sandbox/src/plugin.ts';
import { requestSync } from '../../src/sync/requests.ts';
import type { Tenant } from '../../src/tenants/types.ts';
import { BillWrites, type BillWritesOutcome } from './bill-writes.ts';
import { diffSnapshots, entityEventsSince, expectedEvents, platformSnapshot, storedSnapshot, type Snapshot } from './books.ts';
import { linkSandboxConnection } from './sandbox-connection.ts';

export interface WorkloadOptions {
  syncs: number;
  creates: number;
  updates: number;
  waves: number;
  /** Epoch ms by which everything must have finished. */
  deadline: number;
  /** Throws when the worker is gone; called while waiting. */
  alive: () => void;
}

export class FaultWorkload {
  readonly problems: string[] = [];
  /** One line per sync of A: when it completed, its events and attempts. */
  readonly syncLog: string[] = [];
  writeOutcome: BillWritesOutcome | null = null;
  private readonly begun = Date.now();
  private readonly pool: Pool;
  private readonly jobs: JobSender;
  private readonly sandbox: SandboxPlugin;
  private readonly users: { sync: string; write: string };
  private readonly syncConnection: ConnectionRecord;
  private readonly writeConnection: ConnectionRecord;
  readonly writes: BillWrites;

  private constructor(
    pool: Pool,
    jobs: JobSender,
    sandbox: SandboxPlugin,
    tenant: Tenant,
    users: { sync: string; write: string },
    connections: [ConnectionRecord, ConnectionRecord],
  ) {
    this.pool = pool;
    this.jobs = jobs;
    this.sandbox = sandbox;
    this.users = users;
    [this.syncConnection, this.writeConnection] = connections;
    this.writes = new BillWrites(pool, jobs, tenant, this.writeConnection.id);
  }

  /** Links both connections and materializes their books (the platform side: `sandbox` runs in this process). */
  static async create(
    pool: Pool,
    cipher: Cipher,
    jobs: JobSender,
    sandbox: SandboxPlugin,
    tenant: Tenant,
    users: { sync: string; write: string },
  ): Promise<FaultWorkload> {
    const connections: [ConnectionRecord, ConnectionRecord] = [
      await linkSandboxConnection(pool, cipher, tenant, users.sync, sandbox.connector),
      await linkSandboxConnection(pool, cipher, tenant, users.write, sandbox.connector),
    ];
    await sandbox.platform.materialize(users.sync);
    await sandbox.platform.materialize(users.write);
    return new FaultWorkload(pool, jobs, sandbox, tenant, users, connections);
  }

  /** Reads the books in this process, never through the fault under test. */
  private context(connection: ConnectionRecord): ConnectorContext {
    const user = connection === this.syncConnection ? this.users.sync : this.users.write;
    return connectorContext({
      connector: this.sandbox.connector,
      connectionId: connection.id,
      credentials: { basic_username: user, basic_password: 'pass_good' },
      tokens: null,
      environment: 'sandbox',
      db: this.pool,
    });
  }

  /** Runs A's syncs and B's writes side by side, then B's last sync and every check; the number of A's objects. */
  async run(options: WorkloadOptions): Promise<number> {
    const [objects] = await Promise.all([this.syncs(options), this.billWrites(options)]);
    return objects;
  }

  /** B's last sync and the checks of B; after run(), once the fault has stopped or not. */
  async finish(options: WorkloadOptions): Promise<void> {
    await requestSync(this.pool, this.jobs, this.writeConnection.id, { kind: 'incremental', trigger: 'api', details: {} });
    for (;;) {
      const open = await this.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1 AND status IN ('queued', 'running')`,
        [this.writeConnection.id],
      );
      if (open.rows[0]?.n === 0) break;
      options.alive();
      if (Date.now() > options.deadline) throw new Error('the syncs of the written connection did not finish by the deadline');
      await sleep(250);
    }
    const unfinished = await this.pool.query<{ id: string; status: string; error: string | null }>(
      `SELECT id, status, error FROM sync_runs WHERE status <> 'completed'`,
    );
    for (const run of unfinished.rows) this.problems.push(`sync run ${run.id} ended ${run.status}: ${String(run.error)}`);
    const diff = diffSnapshots(
      await platformSnapshot(this.sandbox.connector, this.context(this.writeConnection)),
      await storedSnapshot(this.pool, this.writeConnection.id),
    );
    if (diff.length > 0) this.problems.push(`the written connection's stored copy differs from its books: ${diff.slice(0, 10).join(', ')}`);
    const outcome = await this.writes.check(this.sandbox.connector, this.context(this.writeConnection));
    this.writeOutcome = outcome;
    this.problems.push(...outcome.problems);
    // A failed write is a problem too, whatever its reason: the faults are our own or transient, never a reason to give a write up.
    for (const { job, write } of outcome.failed)
      this.problems.push(`${write.kind} ${write.memo} failed after ${job.attempts} attempts: ${JSON.stringify(job.response)}`);
  }

  /** Until the run completed; its attempts, and (for a run that took more than one) how it went. */
  private async waitForRun(runId: string, options: WorkloadOptions): Promise<{ attempts: number; story: string }> {
    const started = Date.now();
    const seen: string[] = [];
    for (;;) {
      options.alive();
      const result = await this.pool.query<{ status: string; error: string | null; attempts: number }>(
        'SELECT status, error, attempts FROM sync_runs WHERE id = $1',
        [runId],
      );
      const run = result.rows[0];
      const state = `${run?.status ?? 'missing'}/${run?.attempts ?? 0}`;
      if (seen.at(-1)?.startsWith(`${state} `) !== true)
        seen.push(
          `${state} at ${((Date.now() - started) / 1000).toFixed(1)} s${run?.error !== null && run?.error !== undefined ? ` (${run.error.slice(0, 80)})` : ''}`,
        );
      if (run?.status === 'completed')
        return { attempts: run.attempts, story: run.attempts > 1 ? `${seen.join(' > ')}; ${await this.jobsOf(runId)}` : '' };
      if (run?.status === 'failed')
        throw new Error(`sync ${runId} failed after ${run.attempts} attempts: ${run.error ?? ''} (${seen.join(' > ')}; ${await this.jobsOf(runId)})`);
      if (Date.now() > options.deadline)
        throw new Error(`sync ${runId} not finished by the deadline (${seen.join(' > ')}; ${await this.jobsOf(runId)})`);
      await sleep(100);
    }
  }

  /** The run's queue entries: each one's state, retries and what its handler answered or threw. */
  private async jobsOf(runId: string): Promise<string> {
    const jobs = await this.pool.query<{ state: string; retry_count: number; created_on: Date; started_on: Date | null; output: unknown }>(
      `SELECT state, retry_count, created_on, started_on, output FROM pgboss.job WHERE name = 'sync' AND data->>'syncRunId' = $1 ORDER BY created_on`,
      [runId],
    );
    const at = (d: Date | null): string => d?.toISOString().slice(11, 19) ?? '-';
    return `queue entries: ${jobs.rows
      .map(
        (j) =>
          `${j.state} (retries ${j.retry_count}, created ${at(j.created_on)}, started ${at(j.started_on)}${
            j.output === null ? '' : `, ${JSON.stringify(j.output).slice(0, 100)}`
          })`,
      )
      .join(', ')}`;
  }

  private async syncs(options: WorkloadOptions): Promise<number> {
    const connection = this.syncConnection;
    let before: Snapshot = new Map();
    for (let n = 0; n < options.syncs; n++) {
      if (n > 0) await this.sandbox.platform.advance(this.users.sync, 1);
      const after = await platformSnapshot(this.sandbox.connector, this.context(connection));
      const marker = (await this.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]?.now ?? new Date();
      const run = await requestSync(this.pool, this.jobs, connection.id, { kind: n === 0 ? 'initial' : 'incremental', trigger: 'api', details: {} });
      const { attempts, story } = await this.waitForRun(run.id, options);
      const diff = diffSnapshots(after, await storedSnapshot(this.pool, connection.id));
      if (diff.length > 0) this.problems.push(`sync ${n}: the stored copy differs from the books: ${diff.slice(0, 10).join(', ')}`);
      const fired = await entityEventsSince(this.pool, connection.id, marker);
      const wanted = expectedEvents(n === 0 ? null : before, after);
      const firedSet = new Set(fired);
      const wantedSet = new Set(wanted);
      if (firedSet.size !== fired.length) this.problems.push(`sync ${n}: ${fired.length - firedSet.size} events fired twice`);
      const missing = wanted.filter((e) => !firedSet.has(e));
      const extra = [...firedSet].filter((e) => !wantedSet.has(e));
      if (missing.length > 0) this.problems.push(`sync ${n}: ${missing.length} events missing, e.g. ${missing.slice(0, 5).join(', ')}`);
      if (extra.length > 0) this.problems.push(`sync ${n}: ${extra.length} events not implied by the change, e.g. ${extra.slice(0, 5).join(', ')}`);
      this.syncLog.push(
        `${n === 0 ? 'initial' : 'incremental'} done at ${Math.round((Date.now() - this.begun) / 1000)} s (${wanted.length} events, ${attempts} attempt${attempts === 1 ? '' : 's'}${story === '' ? '' : `: ${story}`})`,
      );
      before = after;
    }
    return before.size;
  }

  private async billWrites(options: WorkloadOptions): Promise<void> {
    const initial = await requestSync(this.pool, this.jobs, this.writeConnection.id, { kind: 'initial', trigger: 'api', details: {} });
    await this.waitForRun(initial.id, options);
    const planned = await this.writes.plan(options.creates, options.updates);
    for (let w = 0; w < options.waves; w++) {
      for (const [n, write] of planned.entries()) if (n % options.waves === w) await this.writes.accept(write, n);
      if (w < options.waves - 1) await sleep(randomInt(2_000, 5_000));
    }
    for (;;) {
      const open = await this.writes.open();
      if (open === 0) return;
      options.alive();
      if (Date.now() > options.deadline) throw new Error(`${open} write jobs still open at the deadline`);
      await sleep(250);
    }
  }
}
