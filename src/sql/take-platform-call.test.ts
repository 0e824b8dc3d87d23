/**
 * The one statement per platform call that takes capacity from a connection's shared limits. Time is moved by
 * changing the meter row (a window that began 24 hours ago), never by waiting: the waits it answers are values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { platformCallsToday } from './platform-calls-today.ts';
import { settlePlatformCallCost } from './settle-platform-call-cost.ts';
import { takePlatformCall, type MeterKey, type MeterLimits, type TakeResult } from './take-platform-call.ts';

let db: TestDatabase;
let organizationId = '';
beforeAll(async () => {
  db = await createTestDatabase();
  organizationId = (await db.pool.query<{ id: string }>(`INSERT INTO organizations (name) VALUES ('Meters') RETURNING id`)).rows[0]?.id ?? '';
});
afterAll(async () => {
  await db.close();
});

async function connection(): Promise<MeterKey> {
  const n = Math.random().toString(36);
  const result = await db.pool.query<{ id: string }>(
    `INSERT INTO connections (organization_id, environment, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
     VALUES ($1, 'sandbox', sha256(convert_to('at' || $2, 'UTF8')), '\\x00'::bytea, sha256(convert_to('lk' || $2, 'UTF8')), '\\x00'::bytea) RETURNING id`,
    [organizationId, n],
  );
  return { connectionId: result.rows[0]?.id ?? '', scope: '' };
}

const budget = (dailyCalls: number): MeterLimits => ({ rate: null, dailyCalls, bucket: null });

/** As if the meter's window had opened `hours` ago. */
async function openedHoursAgo(key: MeterKey, hours: number): Promise<void> {
  await db.pool.query(
    `UPDATE platform_call_meters SET day_started_at = clock_timestamp() - make_interval(hours => $3)
    WHERE connection_id = $1 AND scope = $2`,
    [key.connectionId, key.scope, hours],
  );
}

async function bucketPoints(key: MeterKey): Promise<number | null> {
  const result = await db.pool.query<{ bucket_points: number | null }>(
    'SELECT bucket_points FROM platform_call_meters WHERE connection_id = $1 AND scope = $2',
    [key.connectionId, key.scope],
  );
  return result.rows[0]?.bucket_points ?? null;
}

const waitOf = (result: TakeResult): number => {
  if (!result.granted) throw new Error('the take was refused');
  return result.waitMs;
};

describe('takePlatformCall: the daily budget', () => {
  it('grants calls up to the budget, refuses the next without counting it, and grants again once the 24-hour window ends', async () => {
    const key = await connection();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await takePlatformCall(db.pool, key, budget(3)));
    expect(results.map((r) => [r.granted, r.dayCalls])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
      [false, 3],
    ]);
    const [first, , , refused] = results;
    expect(refused?.dayResetsAt).toEqual(first?.dayResetsAt);
    expect((refused?.dayResetsAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(await platformCallsToday(db.pool, key.connectionId)).toEqual({ calls: 3, resetsAt: first?.dayResetsAt });

    await openedHoursAgo(key, 24);
    expect(await platformCallsToday(db.pool, key.connectionId)).toBeNull();
    const next = await takePlatformCall(db.pool, key, budget(3));
    expect(next).toMatchObject({ granted: true, dayCalls: 1 });
    expect(next.dayResetsAt.getTime()).toBeGreaterThan(first?.dayResetsAt.getTime() ?? 0);
  });

  it('grants exactly the budget to takes racing from many database sessions', async () => {
    const key = await connection();
    const results = await Promise.all(Array.from({ length: 24 }, () => takePlatformCall(db.pool, key, budget(7))));
    expect(results.filter((r) => r.granted)).toHaveLength(7);
    expect((await platformCallsToday(db.pool, key.connectionId))?.calls).toBe(7);
  });

  it('counts the calls of a window without a budget, and keeps meters apart by connection and scope', async () => {
    const key = await connection();
    const other = await connection();
    for (let i = 0; i < 2; i++) await takePlatformCall(db.pool, key, budget(2));
    expect((await takePlatformCall(db.pool, key, budget(2))).granted).toBe(false);
    expect((await takePlatformCall(db.pool, { ...key, scope: 'operation:getOrders' }, budget(2))).granted).toBe(true);
    expect((await takePlatformCall(db.pool, other, budget(2))).granted).toBe(true);
    expect(await takePlatformCall(db.pool, key, { rate: null, dailyCalls: null, bucket: null })).toMatchObject({ granted: true, dayCalls: 3 });
  });
});

describe('takePlatformCall: the rate', () => {
  const minute = (burst: number): MeterLimits => ({ rate: { intervalMs: 60_000, burst }, dailyCalls: null, bucket: null });

  it('spaces calls evenly: each later call waits one interval more than the one before', async () => {
    const key = await connection();
    const waits = [];
    for (let i = 0; i < 3; i++) waits.push(waitOf(await takePlatformCall(db.pool, key, minute(1))));
    expect(waits[0]).toBe(0);
    // Less the few milliseconds the statements themselves took.
    expect(waits[1]).toBeGreaterThan(59_000);
    expect(waits[1]).toBeLessThanOrEqual(60_000);
    expect(waits[2]).toBeGreaterThan(119_000);
    expect(waits[2]).toBeLessThanOrEqual(120_000);
  });

  it('lets a burst start at once, then spaces the rest', async () => {
    const key = await connection();
    const waits = [];
    for (let i = 0; i < 4; i++) waits.push(waitOf(await takePlatformCall(db.pool, key, minute(3))));
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeGreaterThan(59_000);
  });

  it('takes no rate from a call the budget refuses', async () => {
    const key = await connection();
    const limits: MeterLimits = { rate: { intervalMs: 60_000, burst: 1 }, dailyCalls: 1, bucket: null };
    expect(waitOf(await takePlatformCall(db.pool, key, limits))).toBe(0);
    expect((await takePlatformCall(db.pool, key, limits)).granted).toBe(false);
    await openedHoursAgo(key, 24);
    // One interval after the first call, not two: the refused call took no slot.
    expect(waitOf(await takePlatformCall(db.pool, key, limits))).toBeLessThanOrEqual(60_000);
  });
});

describe('takePlatformCall: the cost bucket', () => {
  const bucket = (cost: number): MeterLimits => ({ rate: null, dailyCalls: null, bucket: { size: 100, refillPerSecond: 0.01, cost } });

  it("takes each call's cost, waits while the bucket is short, and settles with the cost the answer reported", async () => {
    const key = await connection();
    expect(waitOf(await takePlatformCall(db.pool, key, bucket(40)))).toBe(0);
    expect(waitOf(await takePlatformCall(db.pool, key, bucket(40)))).toBe(0);
    // 20 points left for a call of 40: it waits for 20 points at 0.01 a second.
    const short = waitOf(await takePlatformCall(db.pool, key, bucket(40)));
    expect(short).toBeGreaterThan(1_990_000);
    expect(short).toBeLessThanOrEqual(2_000_000);
    expect(await bucketPoints(key)).toBeCloseTo(-20, 0);
    // The last call cost 5, not 40: 35 points come back.
    await settlePlatformCallCost(db.pool, key, 100, 35);
    expect(await bucketPoints(key)).toBeCloseTo(15, 0);
    await settlePlatformCallCost(db.pool, key, 100, 500);
    expect(await bucketPoints(key)).toBe(100);
  });
});
