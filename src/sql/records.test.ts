import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { canonicalJson, contentHash } from '../sync/hash.ts';
import { storedBeforeRun, upsertRecords, type RecordWrite } from './records.ts';

let db: TestDatabase;
const connectionId = '00000000-0000-4000-8000-0000000000c1';

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`INSERT INTO organizations (id, name) VALUES ('00000000-0000-4000-8000-0000000000c0', 'Upserts')`);
  await db.pool.query(
    `
    INSERT INTO connections (id, organization_id, environment, status, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
    VALUES ($1, '00000000-0000-4000-8000-0000000000c0', 'sandbox', 'active', sha256('c1'::bytea), '\\x00', sha256('lk_upsert_c1'::bytea), '\\x00')`,
    [connectionId],
  );
}, 60_000);
afterAll(async () => {
  await db.close();
});

function write(id: string, n: number, amount: number): RecordWrite {
  const data = { id, platform_id: `B${n}`, total_amount: amount, memo: `it's "quoted" \\ ${n}`, updated_at: '2026-11-01T10:00:00.000Z' };
  const raw = { Id: `B${n}`, Amount: amount, Note: null, Lines: [{ Amount: amount }] };
  return {
    id,
    platformId: `B${n}`,
    data,
    dataJson: canonicalJson(data),
    raw,
    rawJson: JSON.stringify(raw),
    contentHash: contentHash(data),
    rawHash: contentHash(raw),
    updatedAt: data.updated_at,
    createdAt: null,
    businessDate: n % 2 === 0 ? '2026-10-31T00:00:00.000Z' : null,
  };
}

describe('upsertRecords', () => {
  it('stores more rows than one statement can carry parameters for, exactly as given, and updates them in place', async () => {
    // 8,000 rows x 9 values is past PostgreSQL's 65,535 parameters per statement: the writes go in batches.
    const ids = Array.from({ length: 8_000 }, () => randomUUID());
    await upsertRecords(
      db.pool,
      connectionId,
      'bill',
      ids.map((id, n) => write(id, n, n)),
      '2026-11-02T00:00:00.000Z',
    );
    const sample = async () =>
      (
        await db.pool.query<{ n: number; total: string; memo: string; raw: unknown; dated: number }>(
          `SELECT count(*)::int AS n, sum((data->>'total_amount')::numeric)::text AS total, min(data->>'memo') AS memo,
              (array_agg(raw ORDER BY platform_id))[1] AS raw,
              count(business_date)::int AS dated
         FROM records WHERE connection_id = $1`,
          [connectionId],
        )
      ).rows[0];
    expect(await sample()).toMatchObject({
      n: 8_000,
      total: String((7_999 * 8_000) / 2),
      memo: `it's "quoted" \\ 0`,
      raw: { Id: 'B0', Amount: 0, Note: null, Lines: [{ Amount: 0 }] },
      dated: 4_000,
    });
    const stored = await db.pool.query<{ content_hash: Buffer }>(`SELECT content_hash FROM records WHERE connection_id = $1 AND id = $2`, [
      connectionId,
      ids[7],
    ]);
    expect(stored.rows[0]?.content_hash.equals(write(ids[7] ?? '', 7, 7).contentHash)).toBe(true);

    await upsertRecords(
      db.pool,
      connectionId,
      'bill',
      ids.map((id, n) => write(id, n, n + 1)),
      '2026-11-03T00:00:00.000Z',
    );
    expect(await sample()).toMatchObject({ n: 8_000, total: String((7_999 * 8_000) / 2 + 8_000) });
    const synced = await db.pool.query<{ at: Date }>(`SELECT DISTINCT last_synced_at AS at FROM records WHERE connection_id = $1`, [connectionId]);
    expect(synced.rows.map((r) => r.at.toISOString())).toEqual(['2026-11-03T00:00:00.000Z']);
  });

  it('writes exactly the rows given at every batch size, padding included', async () => {
    const connection = randomUUID();
    await db.pool.query(
      `
      INSERT INTO connections (id, organization_id, environment, status, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
      VALUES ($1::uuid, '00000000-0000-4000-8000-0000000000c0', 'sandbox', 'active', sha256($1::text::bytea), '\\x00', sha256(convert_to('lk_' || $1::text, 'UTF8')), '\\x00')`,
      [connection],
    );
    let written = 0;
    // Around each batch size (8, 64, 512) and across two batches.
    for (const count of [1, 7, 8, 9, 63, 64, 65, 511, 512, 513, 1_100]) {
      await upsertRecords(
        db.pool,
        connection,
        'bill',
        Array.from({ length: count }, (_, n) => write(randomUUID(), written + n, n)),
        '2026-11-04T00:00:00.000Z',
      );
      written += count;
      const stored = await db.pool.query<{ n: number; nulls: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE data IS NULL OR platform_id IS NULL)::int AS nulls FROM records WHERE connection_id = $1`,
        [connection],
      );
      expect(stored.rows[0]).toEqual({ n: written, nulls: 0 });
    }
  });
});

describe('storedBeforeRun', () => {
  it('tells an empty store from one holding records, and records synced before the run from those stored by it', async () => {
    const connection = randomUUID();
    await db.pool.query(
      `
      INSERT INTO connections (id, organization_id, environment, status, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
      VALUES ($1::uuid, '00000000-0000-4000-8000-0000000000c0', 'sandbox', 'active', sha256($1::text::bytea), '\\x00', sha256(convert_to('lk_' || $1::text, 'UTF8')), '\\x00')`,
      [connection],
    );
    const run =
      (
        await db.pool.query<{ id: string }>(
          `INSERT INTO sync_runs (connection_id, kind, trigger, status, started_at) VALUES ($1, 'initial', 'link', 'running', '2026-11-05T00:00:00Z') RETURNING id`,
          [connection],
        )
      ).rows[0]?.id ?? '';
    expect(await storedBeforeRun(db.pool, connection, 'bill', run)).toEqual({ anyStored: false, liveBeforeRun: false });

    // Stored by the run itself (synced after it started): stored, but nothing the deletion sweep could take.
    await upsertRecords(db.pool, connection, 'bill', [write(randomUUID(), 1, 1)], '2026-11-05T00:00:01.000Z');
    expect(await storedBeforeRun(db.pool, connection, 'bill', run)).toEqual({ anyStored: true, liveBeforeRun: false });
    expect(await storedBeforeRun(db.pool, connection, 'invoice', run)).toEqual({ anyStored: false, liveBeforeRun: false });

    // Synced before the run started: a candidate for the sweep, until it is deleted.
    const older = randomUUID();
    await upsertRecords(db.pool, connection, 'bill', [write(older, 2, 2)], '2026-11-04T23:59:59.000Z');
    expect(await storedBeforeRun(db.pool, connection, 'bill', run)).toEqual({ anyStored: true, liveBeforeRun: true });
    await db.pool.query(`UPDATE records SET deleted_at = '2026-11-05T00:00:02Z' WHERE connection_id = $1 AND id = $2`, [connection, older]);
    expect(await storedBeforeRun(db.pool, connection, 'bill', run)).toEqual({ anyStored: true, liveBeforeRun: false });
  });
});
