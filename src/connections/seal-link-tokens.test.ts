/**
 * Migration 0018 and the start-up step that follows it: a database written
 * before them (link tokens, update_url in webhook bodies and OAuth states in
 * clear) ends with none of them in clear, and every link, update_url and
 * state still works.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher, randomToken, sha256 } from '../crypto/secrets.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { fillSecrets } from '../events/access-token-slot.ts';
import { findLinkConnection } from '../link/flow.ts';
import { claimOAuthState } from '../sql/oauth-states.ts';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { linkTokenOf } from './link-token.ts';
import { sealLegacyLinkTokens } from './seal-link-tokens.ts';

const cipher = createCipher(randomBytes(32));
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  await migrate(
    db.pool,
    (await loadMigrations()).filter((m) => m.version < 18),
  );
}, 60_000);
afterAll(async () => {
  await db.close();
});

async function legacyConnection(organizationId: string, linkToken: string): Promise<string> {
  const accessToken = randomToken('lpat_');
  const result = await db.pool.query<{ id: string }>(
    `INSERT INTO connections (organization_id, environment, access_token_sha256, access_token_ciphertext, link_token)
     VALUES ($1, 'sandbox', $2, $3, $4) RETURNING id`,
    [organizationId, sha256(accessToken), cipher.encrypt(accessToken), linkToken],
  );
  return result.rows[0]?.id ?? '';
}

async function legacyEvent(organizationId: string, connectionId: string, body: Record<string, unknown>): Promise<string> {
  const result = await db.pool.query<{ id: string }>(
    `INSERT INTO events (organization_id, environment, connection_id, type, code, payload) VALUES ($1, 'sandbox', $2, 'CONNECTION', $3, $4::json) RETURNING id`,
    [organizationId, connectionId, body.code, JSON.stringify(body)],
  );
  return result.rows[0]?.id ?? '';
}

describe('migration 0018 and the start-up step', () => {
  it('leave no link token or OAuth state in clear, and every one still works', async () => {
    const org = (await db.pool.query<{ id: string }>(`INSERT INTO organizations (name) VALUES ('Legacy links') RETURNING id`)).rows[0]?.id ?? '';
    const kept = randomToken('lk_', 18);
    const gone = randomToken('lk_', 18);
    const state = randomToken('st_');
    const keptId = await legacyConnection(org, kept);
    const goneId = await legacyConnection(org, gone);
    const body = (id: string, token: string) => ({
      type: 'CONNECTION',
      code: 'CONNECTION_LINK_ERROR',
      connection_id: id,
      access_token: null,
      update_url: `https://lp.example/link/${token}`,
      message: 'm',
    });
    const keptEvent = await legacyEvent(org, keptId, body(keptId, kept));
    const goneEvent = await legacyEvent(org, goneId, body(goneId, gone));
    await db.pool.query('DELETE FROM connections WHERE id = $1', [goneId]);
    await db.pool.query(
      `INSERT INTO oauth_states (state, connection_id, platform, redirect_url, expires_at) VALUES ($1, $2, 'XERO', '/link/done', now() + interval '10 minutes')`,
      [state, keptId],
    );

    // 0018 and whatever came after it.
    const applied = await migrate(db.pool);
    expect(applied[0]).toBe(18);
    expect(applied.every((version) => version >= 18)).toBe(true);
    expect(await sealLegacyLinkTokens(db.pool, cipher)).toBe(1);
    // Idempotent: nothing is left to seal.
    expect(await sealLegacyLinkTokens(db.pool, cipher)).toBe(0);

    const stored = await db.pool.query<{ text: string }>(
      `SELECT row_to_json(c)::text AS text FROM connections c
       UNION ALL SELECT row_to_json(e)::text FROM events e
       UNION ALL SELECT row_to_json(o)::text FROM oauth_states o`,
    );
    for (const row of stored.rows) for (const secret of [kept, gone, state]) expect(row.text).not.toContain(secret);

    const found = await findLinkConnection(db.pool, kept);
    expect(found?.id).toBe(keptId);
    if (found === null) throw new Error('link not found');
    expect(linkTokenOf(cipher, found)).toBe(kept);
    expect(await findLinkConnection(db.pool, gone)).toBeNull();

    const events = await db.pool.query<{ id: string; payload: Record<string, unknown>; update_url_ciphertext: Buffer | null }>(
      'SELECT id, payload, update_url_ciphertext FROM events WHERE id = ANY($1::uuid[])',
      [[keptEvent, goneEvent]],
    );
    const byId = new Map(events.rows.map((e) => [e.id, e]));
    const keptRow = byId.get(keptEvent);
    const sealedUrl = keptRow?.update_url_ciphertext ?? null;
    expect(sealedUrl).not.toBeNull();
    // The delivered body is the one written before the migration, key order included.
    expect(
      JSON.stringify(fillSecrets(keptRow?.payload, { accessToken: null, updateUrl: sealedUrl === null ? null : cipher.decrypt(sealedUrl) })),
    ).toBe(JSON.stringify(body(keptId, kept)));
    // A deleted connection's link opens nothing: its update_url is emptied, not sealed.
    expect(byId.get(goneEvent)?.payload.update_url).toBeNull();
    expect(byId.get(goneEvent)?.update_url_ciphertext).toBeNull();

    const claimed = await claimOAuthState(db.pool, state, false);
    expect(claimed?.connection.id).toBe(keptId);
    expect(await claimOAuthState(db.pool, state, false)).toBeNull();
  });

  it('two processes starting at once: each goes on only once every link token is sealed', async () => {
    const org = (await db.pool.query<{ id: string }>(`INSERT INTO organizations (name) VALUES ('Many legacy links') RETURNING id`)).rows[0]?.id ?? '';
    // 1,200 connections as 0018 leaves them: the link token in clear beside its SHA-256, not sealed yet.
    await db.pool.query(
      `INSERT INTO connections (organization_id, environment, access_token_sha256, access_token_ciphertext, link_token, link_token_sha256)
       SELECT $1, 'sandbox', sha256(convert_to('at-' || g, 'UTF8')), '\\x00'::bytea, 'lk_legacy_' || g, sha256(convert_to('lk_legacy_' || g, 'UTF8'))
         FROM generate_series(1, 1200) AS g`,
      [org],
    );
    const leftInClear = async (): Promise<number> =>
      (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM connections WHERE link_token IS NOT NULL')).rows[0]?.n ?? -1;
    const start = () => sealLegacyLinkTokens(db.pool, cipher).then(async (sealed) => ({ sealed, left: await leftInClear() }));
    const [first, second] = await Promise.all([start(), start()]);
    expect(first.left).toBe(0);
    expect(second.left).toBe(0);
    expect(first.sealed + second.sealed).toBe(1200);
    expect(await sealLegacyLinkTokens(db.pool, cipher)).toBe(0);
  });
});
