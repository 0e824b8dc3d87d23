/**
 * The event store holds no access token in clear: emitted events keep an empty
 * access_token slot and the token sealed beside it; the delivered body is the
 * one the emitter built, byte for byte; migration 0016 scrubs events written
 * before it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher, randomToken, sha256 } from '../crypto/secrets.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { fillAccessToken, takeAccessToken, unsealAccessToken } from './access-token-slot.ts';
import { emitEvent, emitEvents } from './emit.ts';

const cipher = createCipher(randomBytes(32));
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

async function organization(): Promise<string> {
  const result = await db.pool.query<{ id: string }>(`INSERT INTO organizations (name) VALUES ('Sealed events') RETURNING id`);
  return result.rows[0]?.id ?? '';
}

async function connection(organizationId: string, token: string): Promise<string> {
  const result = await db.pool.query<{ id: string }>(
    `INSERT INTO connections (organization_id, environment, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
     VALUES ($1, 'sandbox', $2, $3, $4, $5) RETURNING id`,
    [organizationId, sha256(token), cipher.encrypt(token), sha256(randomToken('lk_')), cipher.encrypt('lk_')],
  );
  return result.rows[0]?.id ?? '';
}

interface StoredRow {
  text: string;
  sealed: Buffer | null;
}

async function stored(where: string, values: unknown[]): Promise<StoredRow[]> {
  const result = await db.pool.query<StoredRow>(
    `SELECT payload::text AS text, access_token_ciphertext AS sealed FROM events WHERE ${where} ORDER BY created_at, id`,
    values,
  );
  return result.rows;
}

/** What the dispatcher sends for a stored row. */
const delivered = (row: StoredRow): string => JSON.stringify(fillAccessToken(JSON.parse(row.text), unsealAccessToken(cipher, row.sealed)));

describe('events and access tokens', () => {
  it('store the token sealed, never in clear, and deliver the body the emitter built', async () => {
    const org = await organization();
    const token = randomToken('lpat_');
    const id = await connection(org, token);
    const tenant = { organizationId: org, environment: 'sandbox' as const };
    const body = { type: 'CONNECTION', code: 'INITIAL_UPDATE', connection_id: id, access_token: token, extra: { nested: [1, 'two'] } };
    const eventId = await emitEvent(db.pool, cipher, { tenant, connectionId: id, type: 'CONNECTION', code: 'INITIAL_UPDATE', payload: body });
    const bodies = [1, 2, 3].map((n) => ({
      type: 'BILL',
      code: 'BILL_CREATED',
      connection_id: id,
      access_token: token,
      bill: { id: `b${n}` },
      job_id: 'j',
    }));
    await emitEvents(db.pool, cipher, tenant, [
      ...bodies.map((payload) => ({ connectionId: id, type: 'BILL', code: 'BILL_CREATED', payload })),
      { connectionId: null, type: 'CONNECTION', code: 'OTHER', payload: { type: 'CONNECTION', code: 'OTHER' } },
    ]);

    const [single] = await stored('id = $1', [eventId]);
    if (single === undefined) throw new Error('event not stored');
    expect(single.text).not.toContain(token);
    expect(JSON.parse(single.text)).toEqual({ ...body, access_token: null });
    expect(delivered(single)).toBe(JSON.stringify(body));

    const batch = await stored(`connection_id = $1 AND code = 'BILL_CREATED'`, [id]);
    expect(batch.map(delivered)).toEqual(bodies.map((b) => JSON.stringify(b)));
    for (const row of batch) expect(row.text).not.toContain(token);
    // One seal per token and batch: the rows share it.
    expect(new Set(batch.map((row) => row.sealed?.toString('hex'))).size).toBe(1);
    const [tokenless] = await stored(`organization_id = $1 AND code = 'OTHER'`, [org]);
    expect(tokenless).toEqual({ text: '{"type":"CONNECTION","code":"OTHER"}', sealed: null });
  });

  it('split and fill leave bodies without a token alone', () => {
    expect(takeAccessToken({ a: 1 })).toEqual({ payload: { a: 1 }, accessToken: null });
    expect(fillAccessToken({ a: 1 }, 'lpat_x')).toEqual({ a: 1 });
    expect(fillAccessToken([1], 'lpat_x')).toEqual([1]);
    expect(fillAccessToken({ access_token: null }, null)).toEqual({ access_token: null });
  });
});

describe('migration 0016', () => {
  it('scrubs tokens from events written before it, keeping each delivered body', async () => {
    const legacy = await createTestDatabase();
    try {
      await legacy.pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
      const all = await loadMigrations();
      await migrate(
        legacy.pool,
        all.filter((m) => m.version < 16),
      );
      const org = (await legacy.pool.query<{ id: string }>(`INSERT INTO organizations (name) VALUES ('Legacy') RETURNING id`)).rows[0]?.id;
      await legacy.pool.query(
        `INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, 'sandbox', 'https://example.com/hooks')`,
        [org],
      );
      const insertConnection = async (token: string): Promise<string> =>
        (
          await legacy.pool.query<{ id: string }>(
            `INSERT INTO connections (organization_id, environment, access_token_sha256, access_token_ciphertext, link_token)
         VALUES ($1, 'sandbox', $2, $3, $4) RETURNING id`,
            [org, sha256(token), cipher.encrypt(token), randomToken('lk_')],
          )
        ).rows[0]?.id ?? '';
      const current = randomToken('lpat_');
      const kept = await insertConnection(current);
      const invalidated = randomToken('lpat_');
      const gone = randomToken('lpat_');
      const goneId = await insertConnection(gone);
      const insertEvent = async (connectionId: string, text: string): Promise<string> =>
        (
          await legacy.pool.query<{ id: string }>(
            `INSERT INTO events (organization_id, environment, connection_id, type, code, payload) VALUES ($1, 'sandbox', $2, 'X', 'X', $3::json) RETURNING id`,
            [org, connectionId, text],
          )
        ).rows[0]?.id ?? '';
      // As JSON.stringify wrote them, as jsonb printed them before 0011, with the token nested too, and of a deleted connection.
      const compact = JSON.stringify({ type: 'X', code: 'X', connection_id: kept, access_token: current, bill: { id: 'b' } });
      const spaced = `{"code": "X", "type": "X", "access_token": "${current}", "connection_id": "${kept}"}`;
      const oldToken = JSON.stringify({ type: 'X', connection_id: kept, access_token: invalidated, echo: { access_token: invalidated } });
      const deleted = JSON.stringify({ type: 'X', connection_id: goneId, access_token: gone });
      const ids = [
        await insertEvent(kept, compact),
        await insertEvent(kept, spaced),
        await insertEvent(kept, oldToken),
        await insertEvent(goneId, deleted),
      ];
      await legacy.pool.query('DELETE FROM connections WHERE id = $1', [goneId]);

      expect(await migrate(legacy.pool, all)).toEqual(all.filter((m) => m.version >= 16).map((m) => m.version));

      const rows = await legacy.pool.query<StoredRow & { id: string }>(
        'SELECT id, payload::text AS text, access_token_ciphertext AS sealed FROM events WHERE id = ANY($1::uuid[])',
        [ids],
      );
      const byId = new Map(rows.rows.map((row) => [row.id, row]));
      const row = (n: number): StoredRow => {
        const found = byId.get(ids[n] ?? '');
        if (found === undefined) throw new Error(`event ${n} missing`);
        return found;
      };
      for (const r of rows.rows) for (const secret of [current, invalidated, gone]) expect(r.text).not.toContain(secret);
      expect(delivered(row(0))).toBe(compact);
      expect(row(1).text).toBe(`{"code": "X", "type": "X", "access_token": null, "connection_id": "${kept}"}`);
      expect(JSON.parse(delivered(row(1)))).toEqual(JSON.parse(spaced));
      // An invalidated token is replaced by the one that works now; a nested copy is emptied.
      expect(JSON.parse(delivered(row(2)))).toEqual({ type: 'X', connection_id: kept, access_token: current, echo: { access_token: null } });
      // No token to send for a deleted connection: its pending delivery ends.
      expect(row(3).sealed).toBeNull();
      expect(JSON.parse(row(3).text)).toEqual({ type: 'X', connection_id: goneId, access_token: null });
      const deliveries = await legacy.pool.query<{ event_id: string; status: string }>(
        'SELECT event_id, status FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])',
        [ids],
      );
      expect(new Map(deliveries.rows.map((d) => [d.event_id, d.status]))).toEqual(new Map(ids.map((id, n) => [id, n === 3 ? 'failed' : 'pending'])));
    } finally {
      await legacy.close();
    }
  });
});
