import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { listenOn } from './listener.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

async function backends(): Promise<number[]> {
  const result = await db.pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`);
  return result.rows.map((r) => r.pid);
}

describe('dedicated LISTEN connection', () => {
  it('hears notifications, and is gone from the pool and the server after close', async () => {
    const heard: string[] = [];
    const listener = await listenOn(db.pool, 'ledgerport_test', (payload) => heard.push(payload));
    await db.pool.query(`SELECT pg_notify('ledgerport_test', 'hello')`);
    await sleep(100);
    expect(heard).toEqual(['hello']);
    await listener.close();
    await listener.close();
    expect(listener.alive).toBe(false);
    await sleep(100);
    expect(await backends()).toEqual([]);
  });

  it('survives its backend being terminated: no uncaught error, reported not alive, closable', async () => {
    const listener = await listenOn(db.pool, 'ledgerport_test', () => undefined);
    const [pid] = await backends();
    expect(pid).toBeDefined();
    await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    for (let i = 0; i < 50 && listener.alive; i++) await sleep(20);
    expect(listener.alive).toBe(false);
    await listener.close();
    // The pool still works, and the destroyed client was not handed back to it.
    expect((await db.pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
