/**
 * The connection cache of the data reads, against the real server and PostgreSQL: remembered reads, changes seen as
 * soon as their notification arrives (and, with the trigger switched off, not before: proof that reads were served
 * from memory), deletion, other tenants, lookups that overlap a change, and expiry.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, json, startTestApp, type TestApp } from '../../test/support/app.ts';
import { sandboxConnection } from '../../test/support/sandbox-connection.ts';
import { ConnectionCache } from './access-token-cache.ts';
import { accessTokenOf } from './connections.ts';
import type { ConnectionRecord } from './types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { connectionCacheSeconds: 60 } });
}, 60_000);
afterAll(async () => {
  await t.close();
});

async function readyConnection(user: string): Promise<{ connection: ConnectionRecord; token: string }> {
  const connection = await sandboxConnection(t, user);
  await t.db.pool.query(`UPDATE connections SET status = 'active', ready_at = clock_timestamp() WHERE id = $1`, [connection.id]);
  // As an initial sync that read bills (and found none) leaves it: an empty page is then an answer, not ENTITY_NOT_READY.
  await t.db.pool.query(
    `INSERT INTO sync_objects (connection_id, object_type, status, last_completed_at) VALUES ($1, 'bill', 'completed', clock_timestamp())`,
    [connection.id],
  );
  return { connection, token: accessTokenOf(t.services.cipher, connection) };
}

const list = async (token: string, org = t.org): Promise<{ status: number; code: unknown }> => {
  const response = await t.app.inject({ method: 'GET', url: `/versioned/accounting/bills?access_token=${token}`, headers: clientHeaders(org) });
  return { status: response.statusCode, code: response.statusCode === 200 ? null : json(response).error_code };
};

async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** Changes a connection without announcing it: only what the database says, never what the cache hears. */
async function silently(sql: string, values: unknown[]): Promise<void> {
  const client = await t.db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('ALTER TABLE connections DISABLE TRIGGER connections_notify_change');
    await client.query(sql, values);
    await client.query('ALTER TABLE connections ENABLE TRIGGER connections_notify_change');
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

describe('connection cache of the data reads', () => {
  it('serves a connection from memory until a change to it is announced, then reads the change at once', async () => {
    const { connection, token } = await readyConnection('user_cache_change');
    expect((await list(token)).status).toBe(200);
    await until(() => t.services.connectionCache.listening);
    expect((await list(token)).status).toBe(200);

    // Unannounced, the change is not seen: the read came from memory.
    await silently(`UPDATE connections SET status = 'disabled', disable_message = 'test' WHERE id = $1`, [connection.id]);
    expect((await list(token)).status).toBe(200);

    // Announced (any update of the row), it is seen as soon as the notification arrives.
    await t.db.pool.query('UPDATE connections SET updated_at = clock_timestamp() WHERE id = $1', [connection.id]);
    await until(async () => (await list(token)).status !== 200);
    expect(await list(token)).toMatchObject({ code: 'CONNECTION_DISABLED' });
  });

  it('forgets a deleted connection, and never answers another organisation from memory', async () => {
    const { connection, token } = await readyConnection('user_cache_delete');
    await until(async () => (await list(token)).status === 200 && t.services.connectionCache.listening);
    expect((await list(token)).status).toBe(200);
    const other = await t.newOrg('Cache Other Org');
    expect(await list(token, other)).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });

    await t.db.pool.query('DELETE FROM connections WHERE id = $1', [connection.id]);
    await until(async () => (await list(token)).status === 401);
    expect(await list(token)).toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });

  it('does not remember a lookup that a change overlapped, and lets entries expire', async () => {
    const { connection } = await readyConnection('user_cache_overlap');
    const cache = new ConnectionCache(t.db.pool, 0.2);
    try {
      let loads = 0;
      const load = (): Promise<ConnectionRecord> => {
        loads += 1;
        return Promise.resolve(connection);
      };
      await cache.get('key', load);
      await until(() => cache.listening);

      let release: () => void = () => undefined;
      const slow = cache.get(
        'key',
        () =>
          new Promise<ConnectionRecord>((resolve) => {
            loads += 1;
            release = () => {
              resolve(connection);
            };
          }),
      );
      cache.invalidate(connection.id);
      release();
      await slow;
      loads = 0;
      await cache.get('key', load);
      expect(loads).toBe(1);
      await cache.get('key', load);
      expect(loads).toBe(1);

      await sleep(250);
      await cache.get('key', load);
      expect(loads).toBe(2);
    } finally {
      await cache.close();
    }
  });
});
