/**
 * The shared limiter over real meters: what it waits for (a fake sleep records it), when a spent budget is waited out
 * and when it stops the call, per-operation rates and the cost a connector's hook reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import type { PlatformLimits } from './connector.ts';
import { DailyBudgetSpent } from './daily-budget.ts';
import { createSharedLimiter, type SharedLimiter } from './shared-limits.ts';

let db: TestDatabase;
let organizationId = '';
beforeAll(async () => {
  db = await createTestDatabase();
  organizationId = (await db.pool.query<{ id: string }>(`INSERT INTO organizations (name) VALUES ('Limits') RETURNING id`)).rows[0]?.id ?? '';
});
afterAll(async () => {
  await db.close();
});

async function connection(): Promise<string> {
  const n = Math.random().toString(36);
  const result = await db.pool.query<{ id: string }>(
    `INSERT INTO connections (organization_id, environment, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
     VALUES ($1, 'sandbox', sha256(convert_to('at' || $2, 'UTF8')), '\\x00'::bytea, sha256(convert_to('lk' || $2, 'UTF8')), '\\x00'::bytea) RETURNING id`,
    [organizationId, n],
  );
  return result.rows[0]?.id ?? '';
}

const none: PlatformLimits = { requestsPerMinute: null, concurrentRequests: null };

/** A limiter whose sleeps are recorded, and run `onSleep` instead of passing time. */
function limiter(
  connectionId: string,
  limits: PlatformLimits,
  onSleep: () => Promise<void> = () => Promise.resolve(),
  maxBudgetWaitMs = 60_000,
): { shared: SharedLimiter; sleeps: number[] } {
  const sleeps: number[] = [];
  const shared = createSharedLimiter({
    db: db.pool,
    connectionId,
    platform: 'TESTBOOKS',
    limits,
    maxBudgetWaitMs,
    sleep: async (ms) => {
      sleeps.push(ms);
      await onSleep();
    },
  });
  if (shared === null) throw new Error('these limits have something to share');
  return { shared, sleeps };
}

const response = (body: unknown) => ({ status: 200, headers: {}, body });

describe('createSharedLimiter', () => {
  it('is null when the limits have nothing to share: no statement is spent on them', () => {
    expect(
      createSharedLimiter({
        db: db.pool,
        connectionId: 'x',
        platform: 'P',
        limits: { ...none, concurrentRequests: 5 },
        sleep: () => Promise.resolve(),
        maxBudgetWaitMs: 1,
      }),
    ).toBeNull();
  });

  it('counts the calls of the calendar month, starting again in a new month, refused calls not counted', async () => {
    const id = await connection();
    const { shared } = limiter(id, { ...none, dailyRequests: 3 });
    const month = async (): Promise<{ calls: number; started: string }> => {
      const row = await db.pool.query<{ calls: number; started: string }>(
        `SELECT month_calls::int AS calls, to_char(month_started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS started
           FROM platform_call_meters WHERE connection_id = $1 AND scope = ''`,
        [id],
      );
      return row.rows[0] ?? { calls: -1, started: '' };
    };
    await shared.take({ operation: 'list' });
    await shared.take({ operation: 'list' });
    const firstOfMonth = `${new Date().toISOString().slice(0, 7)}-01 00:00`;
    expect(await month()).toEqual({ calls: 2, started: firstOfMonth });
    // Counted last month: this month's first call starts the count again.
    await db.pool.query(`UPDATE platform_call_meters SET month_started_at = month_started_at - interval '1 month' WHERE connection_id = $1`, [id]);
    await shared.take({ operation: 'list' });
    expect(await month()).toEqual({ calls: 1, started: firstOfMonth });
    // The daily budget of 3 is spent: the refused call is not a call.
    await shared.take({ operation: 'list' }).catch(() => undefined);
    expect((await month()).calls).toBe(1);
  });

  it("stops the call with DailyBudgetSpent once the budget is spent, until the window's end", async () => {
    const id = await connection();
    const { shared } = limiter(id, { ...none, dailyRequests: 2 });
    await shared.take({ operation: 'list' });
    await shared.take({ operation: 'list' });
    const refusal = await shared.take({ operation: 'list' }).catch((error: unknown) => error);
    if (!(refusal instanceof DailyBudgetSpent)) throw new Error(`not refused for the budget: ${String(refusal)}`);
    const spent = refusal;
    expect(spent).toMatchObject({ kind: 'rate_limited', platformCode: 'DAILY_BUDGET_SPENT', dailyLimit: 2, requestSent: false, retryable: true });
    expect(spent.resetsAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(spent.platformMessage).toContain('daily budget of 2 TESTBOOKS calls is spent');
  });

  it('waits out a spent budget whose window ends within maxBudgetWaitMs, then takes from the next window', async () => {
    const id = await connection();
    // The sleep stands for the end of the window: it moves the window's start back a day.
    const { shared, sleeps } = limiter(
      id,
      { ...none, dailyRequests: 1 },
      async () => {
        await db.pool.query(`UPDATE platform_call_meters SET day_started_at = day_started_at - interval '24 hours' WHERE connection_id = $1`, [id]);
      },
      25 * 3600_000,
    );
    await shared.take({ operation: 'list' });
    await shared.take({ operation: 'list' });
    expect(sleeps).toHaveLength(1);
    const calls = await db.pool.query<{ day_calls: number }>('SELECT day_calls FROM platform_call_meters WHERE connection_id = $1', [id]);
    expect(calls.rows[0]?.day_calls).toBe(1);
  });

  it("spaces calls by the connection's rate and by an operation's own rate", async () => {
    const id = await connection();
    const { shared, sleeps } = limiter(id, { ...none, requestsPerMinute: 1, operations: { getOrders: { requestsPerSecond: 1 / 120, burst: 1 } } });
    expect((await shared.take({ operation: 'getOrders' })).waitedMs).toBe(0);
    // The connection allows the next call in a minute, getOrders only in two.
    expect((await shared.take({ operation: 'getOrders' })).waitedMs).toBeGreaterThan(119_000);
    expect(sleeps).toHaveLength(1);
  });

  it('lets a burst of calls start at once, then spaces the rest by the rate (Xero: 10 at once, 50 a minute after)', async () => {
    const id = await connection();
    const { shared, sleeps } = limiter(id, { ...none, requestsPerMinute: 6, burst: 3 });
    for (let n = 0; n < 3; n++) expect((await shared.take({ operation: 'list' })).waitedMs).toBe(0);
    // The fourth waits for the bucket's next token: a tenth of a minute.
    expect((await shared.take({ operation: 'list' })).waitedMs).toBeGreaterThan(9_000);
    expect(sleeps).toHaveLength(1);
  });

  it("settles the cost bucket with the cost the connector's hook reads from the answer", async () => {
    const id = await connection();
    const { shared, sleeps } = limiter(id, {
      ...none,
      costBucket: {
        size: 100,
        refillPerSecond: 0.001,
        defaultCost: 60,
        costOf: (r) => (typeof r.body === 'object' && r.body !== null && 'cost' in r.body && typeof r.body.cost === 'number' ? r.body.cost : null),
      },
    });
    const first = await shared.take({ operation: 'query' });
    await first.settle(response({ cost: 10 }));
    // 90 points left: a second call of 60 starts at once, where without the settlement it would wait.
    expect((await shared.take({ operation: 'query' })).waitedMs).toBe(0);
    expect((await shared.take({ operation: 'query', cost: 40 })).waitedMs).toBeGreaterThan(0);
    expect(sleeps).toHaveLength(1);
  });
});
