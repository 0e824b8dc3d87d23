/**
 * A connection's daily budget of platform calls is shared by every process: two worker processes syncing and
 * writing one connection, after this test process has called it too, make exactly the budget's calls between them
 * (the platform's stand-in counts what it receives), and once it is spent the syncs wait for the end of the
 * budget's window, which the status endpoint shows, and the writes, whose rate-limit budget (120 s) that window
 * exceeds, answer 452 at once instead of waiting a day (src/writes/rate-limit-budget.ts).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenOf, createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { QUEUES } from '../queue/names.ts';
import { connectorContext } from '../platforms/context.ts';
import type { Tenant } from '../tenants/types.ts';
import { acceptWrite } from '../writes/accept.ts';
import { clientHeaders, startTestApp, type TestApp } from '../../test/support/app.ts';
import {
  BUDGET_DAILY_CALLS,
  BUDGET_PLATFORM,
  budgetConnector,
  budgetWorkerEnv,
  registerBudgetConnector,
  startBudgetStandIn,
  type BudgetStandIn,
} from '../../test/support/budget-platform.ts';
import { setEnv } from '../../test/support/env.ts';
import { startService, stopServices, type ServiceProcess } from '../../test/support/process.ts';
import { requestSync } from './requests.ts';

const KEY = randomBytes(32);
const CREATES = 8;
const CALLS_FROM_THIS_PROCESS = 2;

let t: TestApp;
let standIn: BudgetStandIn;
let connection: ConnectionRecord;
let tenant: Tenant;
const workers: ServiceProcess[] = [];
let restoreEnv: () => void = () => undefined;

interface Status {
  platform_pause: { paused_until: string; reason: string } | null;
  platform_budget: { daily_limit: number; used_today: number; remaining_today: number; resets_at: string | null } | null;
}

async function statusOf(): Promise<Status> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/versioned/connections/status?access_token=${accessTokenOf(t.services.cipher, connection)}`,
    headers: clientHeaders(t.org),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ status: Status }>().status;
}

function workersAlive(): void {
  for (const worker of workers) {
    if (worker.child.exitCode !== null) throw new Error(`a worker exited with ${worker.child.exitCode}:\n${worker.output()}`);
  }
}

/** Until the connection is paused and nothing of it runs or is due: no process can call the platform any more. */
async function untilPausedAndQuiet(): Promise<void> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const result = await t.db.pool.query<{ paused: boolean; busy: number }>(
      `SELECT EXISTS (SELECT 1 FROM platform_pauses WHERE connection_id = $1 AND paused_until > now()) AS paused,
              (SELECT count(*) FROM sync_runs WHERE connection_id = $1 AND status = 'running')
            + (SELECT count(*) FROM write_jobs WHERE connection_id = $1 AND status = 'in_progress')
            + (SELECT count(*) FROM pgboss.job WHERE name = ANY($2::text[]) AND (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now())))
              AS busy`,
      [connection.id, [QUEUES.sync, QUEUES.write]],
    );
    const row = result.rows[0];
    if (row?.paused === true && row.busy === 0) return;
    workersAlive();
    if (Date.now() > deadline)
      throw new Error(`not paused and quiet in time (${JSON.stringify(row)}); workers said:\n${workers.map((w) => w.output()).join('\n')}`);
    await sleep(200);
  }
}

beforeAll(async () => {
  registerBudgetConnector();
  standIn = await startBudgetStandIn();
  restoreEnv = setEnv({ BUDGET_PLATFORM_URL: standIn.url });
  t = await startTestApp({ encryptionKey: KEY });
  tenant = { organizationId: t.org.organization.id, environment: 'sandbox' };
  ({ connection } = await createConnection(t.db.pool, t.services.cipher, tenant, {
    platform: BUDGET_PLATFORM,
    name: null,
    credentials: { api_key: 'budget' },
    identity: { storeUniqueId: 'budget-1', storeName: 'Budget Books' },
    syncConfig: { historical_months: 0 },
    scope: null,
    marketplace: null,
    redirectUrl: null,
  }));
}, 120_000);

afterAll(async () => {
  await stopServices(workers);
  await t.close();
  await standIn.close();
  restoreEnv();
});

describe('a daily budget shared by every process', () => {
  it('two worker processes and this one never call past it together; then syncs pause until its window ends and writes answer 452', async () => {
    const status = await statusOf();
    expect(status.platform_budget).toEqual({ daily_limit: BUDGET_DAILY_CALLS, used_today: 0, remaining_today: BUDGET_DAILY_CALLS, resets_at: null });

    // This process takes its share first, through the same limits as the workers.
    const ctx = connectorContext({
      connector: budgetConnector,
      connectionId: connection.id,
      credentials: { api_key: 'budget' },
      tokens: null,
      environment: 'sandbox',
      db: t.db.pool,
    });
    const accounts = budgetConnector.objects.account?.handler;
    if (accounts === undefined) throw new Error('the budget platform reads accounts');
    for (let i = 0; i < CALLS_FROM_THIS_PROCESS; i++) await accounts.read(ctx, { since: null, window: null, pageToken: null });
    expect((await statusOf()).platform_budget?.used_today).toBe(CALLS_FROM_THIS_PROCESS);

    for (let i = 0; i < 2; i++) {
      workers.push(
        startService(['--role=worker'], {
          DATABASE_URL: t.db.url,
          ENCRYPTION_KEY: KEY.toString('hex'),
          ADMIN_TOKEN: 'platform-budget-admin-token',
          SANDBOX_TICK_INTERVAL_SECONDS: '0',
          ...budgetWorkerEnv(standIn.url),
        }),
      );
    }
    // Far more calls than the budget: the initial sync alone lists 20 pages; each create is a call, and its follow-up sync more.
    await requestSync(t.db.pool, t.services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
    for (let i = 0; i < CREATES; i++) {
      await acceptWrite(t.db.pool, t.services.jobs, {
        tenant,
        connectionId: connection.id,
        objectType: 'account',
        operation: 'create',
        targetId: null,
        idempotencyKey: null,
        request: { method: 'POST', path: '/versioned/accounting/accounts', body: { account: { name: `Budget account ${i}` } } },
      });
    }
    await untilPausedAndQuiet();

    expect(standIn.calls).toHaveLength(BUDGET_DAILY_CALLS);
    const callers = new Set(standIn.calls.map((call) => call.callerPid));
    expect(callers.has(String(process.pid))).toBe(true);
    expect(callers.size).toBeGreaterThanOrEqual(2);
    expect([...callers].every((pid) => pid === String(process.pid) || workers.some((w) => String(w.child.pid) === pid))).toBe(true);

    const { platform_pause: pause, platform_budget: budget } = await statusOf();
    expect(budget).toMatchObject({ daily_limit: BUDGET_DAILY_CALLS, used_today: BUDGET_DAILY_CALLS, remaining_today: 0 });
    expect(pause?.paused_until).toBe(budget?.resets_at);
    expect(Date.parse(pause?.paused_until ?? '') - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(pause?.reason).toContain(`daily budget of ${BUDGET_DAILY_CALLS} ${BUDGET_PLATFORM} calls is spent`);

    // Deferred, not failed: the sync waits in the queue for the window's end. A write does not wait a day: each one
    // the spent budget refused answered 452 at once, saying when the window ends; none is left pending.
    const runs = await t.db.pool.query<{ status: string }>('SELECT status FROM sync_runs WHERE connection_id = $1', [connection.id]);
    expect(runs.rows.every((r) => r.status === 'queued' || r.status === 'completed')).toBe(true);
    expect(runs.rows.some((r) => r.status === 'queued')).toBe(true);
    const writes = await t.db.pool.query<{ status: string; response_status: number | null; code: string | null }>(
      `SELECT status, response_status, response->>'error_code' AS code FROM write_jobs WHERE connection_id = $1`,
      [connection.id],
    );
    expect(writes.rows.filter((w) => w.status !== 'completed' && w.status !== 'failed')).toEqual([]);
    // Whether a write met the spent budget depends on how the two workers' calls interleave (in CI all of them once
    // finished first); a write that meets a pause is answered 452 at once, shown in src/writes/executor.test.ts.
    const failed = writes.rows.filter((w) => w.status === 'failed');
    expect(failed.every((w) => w.response_status === 452 && w.code === 'PLATFORM_RATE_LIMITED')).toBe(true);
    const resumes = await t.db.pool.query<{ early: number }>(
      `SELECT count(*)::int AS early FROM pgboss.job WHERE name = ANY($1::text[]) AND state IN ('created', 'retry') AND start_after < $2::timestamptz`,
      [[QUEUES.sync, QUEUES.write], pause?.paused_until],
    );
    expect(resumes.rows[0]?.early).toBe(0);
  }, 240_000);
});
