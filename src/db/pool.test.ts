import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { createPool, isConnectionLoss, withTransaction, type Pool } from './pool.ts';

let db: TestDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool(db.url, { max: 2, applicationName: 'ledgerport-pool-test' });
});
afterAll(async () => {
  await pool.end();
  await db.close();
});

async function terminate(pid: number): Promise<void> {
  await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
}

async function pidOf(client: { query: Pool['query'] }): Promise<number> {
  const result = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = result.rows[0]?.pid;
  if (pid === undefined) throw new Error('no backend pid');
  return pid;
}

describe('pool clients whose backend is terminated (pg_terminate_backend)', () => {
  it('a checked-out client between two queries: its next query fails, no uncaught error, and release drops it', async () => {
    const client = await pool.connect();
    await terminate(await pidOf(client));
    await sleep(200);
    const error: unknown = await client.query('SELECT 1').catch((e: unknown) => e);
    expect(isConnectionLoss(error)).toBe(true);
    client.release();
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('a transaction cut off in the middle (idle in transaction, then mid-statement): it rolls back and the error reaches the caller', async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS pool_test_rows (n int)');
    let pid = 0;
    await expect(
      withTransaction(pool, async (tx) => {
        pid = await pidOf(tx);
        await tx.query('INSERT INTO pool_test_rows VALUES (1)');
        await terminate(pid);
        await sleep(200);
        await tx.query('INSERT INTO pool_test_rows VALUES (2)');
      }),
    ).rejects.toThrow();
    const cut: unknown = await withTransaction(pool, async (tx) => {
      const own = await pidOf(tx);
      setTimeout(() => {
        void terminate(own);
      }, 100);
      await tx.query('SELECT pg_sleep(5)');
    }).catch((e: unknown) => e);
    expect(isConnectionLoss(cut)).toBe(true);
    expect(pid).toBeGreaterThan(0);
    expect((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pool_test_rows')).rows).toEqual([{ n: 0 }]);
  });

  it('isConnectionLoss tells a lost connection from a failed statement', async () => {
    const failed: unknown = await pool.query('SELECT 1/0').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(isConnectionLoss(failed)).toBe(false);
    expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(true);
    expect(isConnectionLoss('57P01')).toBe(false);
  });
});
