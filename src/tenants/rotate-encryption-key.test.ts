/**
 * ENCRYPTION_KEY rotation on a real PostgreSQL (issue 33): every sealed column holds values sealed with key A (in
 * the layout of earlier releases and in today's); with B current and A previous, `ledgerport rotate-encryption-key`
 * re-seals them all, after which B alone opens everything and starts; a second run changes nothing. A row another
 * transaction holds is left for a later run (SKIP LOCKED), a run that dies halfway loses nothing, and a value sealed
 * with a key nobody configured is named.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher, createKeyRing, keyIdOf, randomToken, sealInLegacyLayout, sha256, type Cipher, type KeyRing } from '../crypto/secrets.ts';
import { ciphertextColumns, SEALED_COLUMNS, type SealedColumn } from '../sql/sealed-values.ts';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { ROOT } from '../../test/support/process.ts';
import { FixableError } from '../errors/start-failure.ts';
import { verifyEncryptionKey } from './bootstrap.ts';
import { rotateEncryptionKey, type RotationReport } from './rotate-encryption-key.ts';

const A = randomBytes(32);
const B = randomBytes(32);
const C = randomBytes(32);
const D = randomBytes(32);
const ringA = createCipher(A);
const id = (key: Buffer): string => keyIdOf(key).toString('hex');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('embedded');
}, 60_000);
afterAll(async () => {
  await db.close();
});

/** Sealed with A: every other value in the layout releases before key rotation wrote, the rest in today's. */
let sealedCount = 0;
function sealA(plaintext: string): Buffer {
  sealedCount++;
  return sealedCount % 2 === 0 ? sealInLegacyLayout(A, plaintext) : ringA.encrypt(plaintext);
}
const pageToken = (sealed: Buffer): string => `sealed:${sealed.toString('base64url')}`;

/** A row in every table with a sealed column, each sealed value the text `<table>.<column>#<n>`. */
async function seed(organizationName: string, connections: number): Promise<void> {
  const q = (sql: string, params: unknown[]) => db.pool.query<{ id: string }>(sql, params);
  const org = (await q(`INSERT INTO organizations (name) VALUES ($1) RETURNING id`, [organizationName])).rows[0]?.id;
  const credential = (
    await q(`INSERT INTO api_credentials (organization_id, environment, client_id) VALUES ($1, 'sandbox', $2) RETURNING id`, [
      org,
      randomToken('ci_'),
    ])
  ).rows[0]?.id;
  await q(`INSERT INTO api_secrets (credential_id, secret_sha256, secret_ciphertext) VALUES ($1, $2, $3)`, [
    credential,
    sha256('s'),
    sealA(`api_secrets.secret_ciphertext#${organizationName}`),
  ]);
  await q(
    `INSERT INTO oauth_apps (organization_id, environment, platform, client_id, client_secret_ciphertext, redirect_uri, webhook_key_ciphertext)
     VALUES ($1, 'sandbox', 'XERO', 'client', $2, 'https://lp.example/cb', $3)`,
    [org, sealA('oauth_apps.client_secret_ciphertext'), sealA('oauth_apps.webhook_key_ciphertext')],
  );
  await q(
    `INSERT INTO idempotency_keys (organization_id, environment, key, request_method, request_path, request_sha256, state, response_status, response_body, expires_at)
     VALUES ($1, 'sandbox', 'k1', 'POST', '/x', $2, 'completed', 200, $3, now() + interval '1 day')`,
    [org, sha256('r'), sealA('idempotency_keys.response_body')],
  );
  for (let n = 0; n < connections; n++) {
    const connection = (
      await q(
        `INSERT INTO connections (organization_id, environment, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext,
                                  credentials_ciphertext, oauth_tokens_ciphertext)
         VALUES ($1, 'sandbox', $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          org,
          sha256(randomToken('at_')),
          sealA(`connections.access_token_ciphertext#${n}`),
          sha256(randomToken('lt_')),
          sealA(`connections.link_token_ciphertext#${n}`),
          sealA(`connections.credentials_ciphertext#${n}`),
          n % 2 === 0 ? sealA(`connections.oauth_tokens_ciphertext#${n}`) : null,
        ],
      )
    ).rows[0]?.id;
    await q(
      `INSERT INTO events (organization_id, environment, connection_id, type, code, payload, access_token_ciphertext, update_url_ciphertext)
       VALUES ($1, 'sandbox', $2, 'CONNECTION', 'CONNECTION_UPDATED', '{}', $3, $4)`,
      [org, connection, sealA(`events.access_token_ciphertext#${n}`), sealA(`events.update_url_ciphertext#${n}`)],
    );
    await q(
      `INSERT INTO oauth_states (state_sha256, connection_id, platform, pending_tokens_ciphertext, authorization_input_ciphertext, expires_at)
       VALUES ($1, $2, 'XERO', $3, $4, now() + interval '10 minutes')`,
      [
        sha256(randomToken('st_')),
        connection,
        sealA(`oauth_states.pending_tokens_ciphertext#${n}`),
        sealA(`oauth_states.authorization_input_ciphertext#${n}`),
      ],
    );
    await q(
      `INSERT INTO sync_exports (connection_id, object_type, run_id, batch_index, export_id, status, result_cursor_ciphertext)
       VALUES ($1, 'bill', gen_random_uuid(), 0, 'x', 'ready', $2)`,
      [connection, sealA(`sync_exports.result_cursor_ciphertext#${n}`)],
    );
    // A sealed page token (a bulk export's), and a plain one (a paged read's), which is no secret and stays as it is.
    await q(`INSERT INTO sync_objects (connection_id, object_type, page_token) VALUES ($1, 'bill', $2), ($1, 'invoice', 'page-2')`, [
      connection,
      pageToken(sealA(`sync_objects.page_token#${n}`)),
    ]);
  }
}

/** Every sealed value of a column, as stored (bytes; a page token's bytes), by row. */
async function storedValues(column: SealedColumn): Promise<Map<string, Buffer>> {
  const result = await db.pool.query<{ key: string; stored: Buffer | string }>(
    `SELECT concat_ws('/', ${column.key.map((k) => `${k.name}::text`).join(', ')}) AS key, ${column.column} AS stored FROM ${column.table}
      WHERE ${column.column} IS NOT NULL ${column.encoding === 'page-token' ? `AND ${column.column} LIKE 'sealed:%'` : ''}`,
  );
  return new Map(
    result.rows.map((r) => [r.key, typeof r.stored === 'string' ? Buffer.from(r.stored.slice('sealed:'.length), 'base64url') : r.stored]),
  );
}

/** Every sealed value opened with `cipher`: `table.column/key` → plaintext (throws when one does not open). */
async function openAll(cipher: Cipher): Promise<Map<string, string>> {
  const opened = new Map<string, string>();
  for (const column of SEALED_COLUMNS)
    for (const [key, sealed] of await storedValues(column)) opened.set(`${column.table}.${column.column}/${key}`, cipher.decrypt(sealed));
  return opened;
}

async function snapshot(): Promise<string[]> {
  const all: string[] = [];
  for (const column of SEALED_COLUMNS)
    for (const [key, sealed] of await storedValues(column)) all.push(`${column.table}.${column.column}/${key}:${sealed.toString('hex')}`);
  const check = await db.pool.query<{ value: string }>(`SELECT value FROM service_settings WHERE key = 'encryption_key_check'`);
  return [...all.sort(), `check:${check.rows[0]?.value ?? ''}`];
}

const runCli = promisify(execFile);
async function rotateByCli(env: Record<string, string>): Promise<{ code: number; report: RotationReport; stderr: string }> {
  const options = {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      ADMIN_TOKEN: `rotate-test-${randomBytes(8).toString('hex')}`,
      DATA_DIR: '/tmp/ledgerport-test-data',
      LOG_LEVEL: 'silent',
      ...env,
    },
  };
  try {
    const { stdout, stderr } = await runCli(process.execPath, ['bin/ledgerport.js', 'rotate-encryption-key', '--batch-size', '3'], options);
    return { code: 0, report: JSON.parse(stdout) as RotationReport, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, report: JSON.parse(failed.stdout ?? 'null') as RotationReport, stderr: failed.stderr ?? '' };
  }
}

describe('ledgerport rotate-encryption-key', () => {
  it('lists every sealed column of the schema', async () => {
    const listed = SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`);
    for (const c of await ciphertextColumns(db.pool)) expect(listed).toContain(`${c.table}.${c.column}`);
  });

  it('re-seals everything sealed with A under B, after which B alone opens all and starts, and a second run is a no-op', async () => {
    await seed('Rotation', 7);
    // The key check as the first start of an earlier release wrote it.
    await db.pool.query(`INSERT INTO service_settings (key, value) VALUES ('encryption_key_check', $1)`, [
      JSON.stringify(sealInLegacyLayout(A, 'ledgerport-key-check').toString('base64')),
    ]);
    const before = await openAll(ringA);
    // Every listed column has values to rotate.
    for (const column of SEALED_COLUMNS)
      expect(
        [...before.keys()].some((k) => k.startsWith(`${column.table}.${column.column}/`)),
        column.column,
      ).toBe(true);
    expect(before.size).toBe(sealedCount);
    // B alone cannot start on this database yet: it says which key it lacks and what to do during a rotation.
    const refused = await verifyEncryptionKey(db.pool, createCipher(B)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FixableError);
    if (!(refused instanceof FixableError)) return;
    expect(refused.message).toContain(`opens with none of the configured keys: ENCRYPTION_KEY (key ${id(B)})`);
    expect(refused.fix).toContain('keep the key the database was using in ENCRYPTION_KEY_PREVIOUS');

    const first = await rotateByCli({ ENCRYPTION_KEY: B.toString('hex'), ENCRYPTION_KEY_PREVIOUS: A.toString('hex') });
    expect(first.code, first.stderr).toBe(0);
    expect(first.report).toMatchObject({
      current_key: id(B),
      previous_keys: [id(A)],
      resealed: sealedCount,
      unreadable_count: 0,
      remaining_under_previous_keys: 0,
      key_check: 'resealed',
      previous_keys_unused: true,
    });
    expect(first.report.summary).toContain(`No value is sealed with a previous key any more: remove ENCRYPTION_KEY_PREVIOUS (keys ${id(A)})`);
    expect(first.stderr).toContain('connections.credentials_ciphertext: 7 re-sealed, 0 not under the current key');

    // B alone: every value opens, to what it was; the key check too; A alone no longer starts.
    expect(await openAll(createCipher(B))).toEqual(before);
    await expect(verifyEncryptionKey(db.pool, createCipher(B))).resolves.toEqual({ checkSealedWithCurrentKey: true });
    await expect(verifyEncryptionKey(db.pool, ringA)).rejects.toThrow(/not the key this database was set up with/);
    // The plain page tokens were left alone.
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM sync_objects WHERE page_token = 'page-2'`)).rows[0]).toEqual({ n: 7 });

    // Again, with A no longer configured: nothing to do, nothing written.
    const stored = await snapshot();
    const second = await rotateByCli({ ENCRYPTION_KEY: B.toString('hex') });
    expect(second.code, second.stderr).toBe(0);
    expect(second.report).toMatchObject({ resealed: 0, key_check: 'current', previous_keys_unused: true, unreadable_count: 0 });
    expect(second.report.columns.every((c) => c.resealed === 0 && c.remaining === 0)).toBe(true);
    expect(await snapshot()).toEqual(stored);
  }, 120_000);

  it('passes over a row another transaction holds, says a previous key is still needed, and finishes when run again', async () => {
    // From B (the last test's current key) to C.
    const ring = createKeyRing(C, [B]);
    const held = await db.pool.connect();
    try {
      await held.query('BEGIN');
      // A connection without OAuth tokens: three sealed values (access token, link token, credentials).
      await held.query(`SELECT 1 FROM connections WHERE oauth_tokens_ciphertext IS NULL ORDER BY id LIMIT 1 FOR UPDATE`);
      const partial = await rotateEncryptionKey(db.pool, ring, { batchSize: 2, retryPauseMs: 10 });
      expect(partial).toMatchObject({ remaining_under_previous_keys: 3, previous_keys_unused: false, key_check: 'left under a previous key' });
      expect(partial.summary).toContain('3 values are still sealed with a previous key');
      // The start-up check still needs B: dropping it now would be refused.
      await expect(verifyEncryptionKey(db.pool, createCipher(C))).rejects.toThrow(/not the key this database was set up with/);
    } finally {
      await held.query('ROLLBACK');
      held.release();
    }
    const rest = await rotateEncryptionKey(db.pool, ring, { batchSize: 2 });
    expect(rest).toMatchObject({ resealed: 3, remaining_under_previous_keys: 0, previous_keys_unused: true, key_check: 'resealed' });
    await openAll(createCipher(C));
  }, 60_000);

  it('loses nothing when a run dies halfway: what it committed stays, what it did not is taken by the next run', async () => {
    // From C to D; this run's sealing fails on its 20th value, inside a batch (of 6 rows at most).
    const ring = createKeyRing(D, [C]);
    let sealed = 0;
    const dying: KeyRing = {
      ...ring,
      encrypt(plaintext) {
        if (++sealed === 20) throw new Error('killed');
        return ring.encrypt(plaintext);
      },
    };
    const before = await openAll(ring);
    await expect(rotateEncryptionKey(db.pool, dying, { batchSize: 6 })).rejects.toThrow('killed');
    const underD = [...(await snapshot())].filter((v) => v.includes(`:02${id(D)}`)).length;
    // 19 values were sealed again before it died: those of the batches it committed are stored, the dying batch's are not.
    expect(underD).toBeGreaterThan(0);
    expect(underD).toBeLessThan(19);
    expect(await openAll(ring)).toEqual(before);
    const rest = await rotateEncryptionKey(db.pool, ring, { batchSize: 6 });
    expect(rest).toMatchObject({ resealed: before.size - underD, previous_keys_unused: true, key_check: 'resealed' });
    expect(await openAll(createCipher(D))).toEqual(before);
  }, 60_000);

  it('names each value sealed with a key it is not given (row, column, key id), and exits 1', async () => {
    const stranger = randomBytes(32);
    const [first, second] = (await db.pool.query<{ id: string }>(`SELECT id FROM connections ORDER BY id LIMIT 2`)).rows;
    await db.pool.query(`UPDATE connections SET credentials_ciphertext = $2 WHERE id = $1`, [first?.id, createCipher(stranger).encrypt('lost')]);
    await db.pool.query(`UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1`, [second?.id, sealInLegacyLayout(stranger, 'lost too')]);
    const failed = await rotateByCli({ ENCRYPTION_KEY: D.toString('hex') });
    expect(failed.code).toBe(1);
    expect(failed.report).toMatchObject({ unreadable_count: 2, remaining_under_previous_keys: 0, previous_keys_unused: true });
    expect(failed.report.unreadable).toEqual([
      {
        table: 'connections',
        column: 'credentials_ciphertext',
        key: { id: first?.id },
        error: `the value is sealed with key ${id(stranger)}, which is none of the configured keys: ENCRYPTION_KEY (key ${id(D)})`,
      },
      {
        table: 'connections',
        column: 'oauth_tokens_ciphertext',
        key: { id: second?.id },
        error: `the value (sealed before key ids, layout 1) opens with none of the configured keys: ENCRYPTION_KEY (key ${id(D)})`,
      },
    ]);
    expect(failed.report.summary).toContain('2 values open with none of the configured keys (listed in "unreadable")');
    expect(failed.stderr).toContain('2 values open with none of the configured keys');
  }, 60_000);
});
