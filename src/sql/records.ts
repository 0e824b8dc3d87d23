/** The stored copy: hashes for change detection, batch upserts, deletions. */
import type { Queryable } from '../db/pool.ts';

export interface StoredHash {
  platform_id: string;
  id: string;
  content_hash: Buffer;
  raw_hash: Buffer | null;
  deleted: boolean;
}

/**
 * The stored hashes of a page's records, by their service ids (derived from the platform ids, src/store/ids.ts).
 * One primary-key probe per id, whatever the statistics say: right after a bulk load they are stale, and the
 * planner then read every stored record of the type to find a page's 500 (measured: 25 ms a page at 100,000
 * records and growing with the store, against 4 ms).
 */
export async function loadStoredHashes(db: Queryable, connectionId: string, objectType: string, ids: string[]): Promise<Map<string, StoredHash>> {
  const result = await db.query<StoredHash>(
    `SELECT r.platform_id, r.id, r.content_hash, r.raw_hash, r.deleted
       FROM unnest($3::uuid[]) AS page(id)
      CROSS JOIN LATERAL (
            SELECT platform_id, id, content_hash, raw_hash, deleted_at IS NOT NULL AS deleted
              FROM records WHERE connection_id = $1 AND object_type = $2 AND id = page.id
             LIMIT 1) r`,
    [connectionId, objectType, ids],
  );
  return new Map(result.rows.map((r) => [r.platform_id, r]));
}

export interface RecordWrite {
  id: string;
  platformId: string;
  data: Record<string, unknown>;
  /** data as JSON text (stored as jsonb, so any key order will do: the canonical text, made for the hash anyway). */
  dataJson: string;
  raw: Record<string, unknown>;
  /** raw as JSON text, as the platform's record serialises (its hash is rawHash). */
  rawJson: string;
  contentHash: Buffer;
  rawHash: Buffer;
  updatedAt: string | null;
  createdAt: string | null;
  businessDate: string | null;
}

/**
 * Writes new and changed records; unchanged ones are never sent here.
 * last_synced_at moves only when the unified object changed (not for platform_data-only changes).
 * Each value is its own parameter: the unified object and the platform record reach PostgreSQL as
 * their JSON text once (measured: a page batched as one JSON document costs about 40% more, since
 * PostgreSQL parses the document and then each object in it again).
 */
export async function upsertRecords(db: Queryable, connectionId: string, objectType: string, rows: RecordWrite[], syncedAt: string): Promise<void> {
  for (let start = 0; start < rows.length; start += LARGEST_BATCH) {
    await upsertBatch(db, connectionId, objectType, rows.slice(start, start + LARGEST_BATCH), syncedAt);
  }
}

/**
 * Rows per statement. The statements are prepared once per database session and reused: parsing
 * one of 4,608 parameters took about a fifth of each page's write (measured). A batch is padded with
 * empty rows to the next size here, so a session prepares at most these three statements.
 */
const BATCH_SIZES = [8, 64, 512] as const;
const LARGEST_BATCH = 512;
const COLUMNS_PER_ROW = 9;

function batchSizeFor(rows: number): number {
  return BATCH_SIZES.find((size) => size >= rows) ?? LARGEST_BATCH;
}

const upsertTexts = new Map<number, string>();

function upsertText(size: number): string {
  const known = upsertTexts.get(size);
  if (known !== undefined) return known;
  const tuples: string[] = [];
  for (let row = 0; row < size; row++) {
    const p = 3 + row * COLUMNS_PER_ROW;
    tuples.push(
      `($${p + 1}::uuid, $${p + 2}::text, $${p + 3}::jsonb, $${p + 4}::json, $${p + 5}::bytea, $${p + 6}::bytea, $${p + 7}::timestamptz, $${p + 8}::timestamptz, $${p + 9}::timestamptz)`,
    );
  }
  const text = `INSERT INTO records AS r (connection_id, object_type, id, platform_id, data, raw, content_hash, raw_hash,
                               updated_at, created_at, business_date, last_synced_at, deleted_at)
     SELECT $1, $2, u.id, u.platform_id, u.data, u.raw, u.content_hash, u.raw_hash,
            u.updated_at, u.created_at, u.business_date, $3::timestamptz, NULL
       FROM (VALUES ${tuples.join(', ')})
            AS u(id, platform_id, data, raw, content_hash, raw_hash, updated_at, created_at, business_date)
      WHERE u.id IS NOT NULL
     ON CONFLICT (connection_id, object_type, id) DO UPDATE SET
            data = EXCLUDED.data, raw = EXCLUDED.raw, content_hash = EXCLUDED.content_hash, raw_hash = EXCLUDED.raw_hash,
            updated_at = EXCLUDED.updated_at, created_at = EXCLUDED.created_at, business_date = EXCLUDED.business_date,
            platform_id = EXCLUDED.platform_id, deleted_at = NULL,
            last_synced_at = CASE WHEN r.content_hash IS DISTINCT FROM EXCLUDED.content_hash OR r.deleted_at IS NOT NULL
                                  THEN EXCLUDED.last_synced_at ELSE r.last_synced_at END`;
  upsertTexts.set(size, text);
  return text;
}

async function upsertBatch(db: Queryable, connectionId: string, objectType: string, rows: RecordWrite[], syncedAt: string): Promise<void> {
  const size = batchSizeFor(rows.length);
  const values: unknown[] = [connectionId, objectType, syncedAt];
  for (const r of rows) {
    values.push(r.id, r.platformId, r.dataJson, r.rawJson, r.contentHash, r.rawHash, r.updatedAt, r.createdAt, r.businessDate);
  }
  // Padding: rows of nulls, which the statement skips (WHERE u.id IS NOT NULL).
  values.length = 3 + size * COLUMNS_PER_ROW;
  values.fill(null, 3 + rows.length * COLUMNS_PER_ROW);
  await db.query({ name: `ledgerport_upsert_records_${size}`, text: upsertText(size), values });
}

/** Remembers the platform ids a full listing saw (for deletion detection at its end). */
/**
 * What a read of one object type has to compare with, asked when the read starts or resumes: whether anything of
 * the type is stored for the connection at all, and whether a live record was last synced before the run began
 * (the deletion sweep at the end of a full listing, deleteUnseen, only ever considers those).
 */
export async function storedBeforeRun(
  db: Queryable,
  connectionId: string,
  objectType: string,
  runId: string,
): Promise<{ anyStored: boolean; liveBeforeRun: boolean }> {
  const result = await db.query<{ any_stored: boolean; live_before_run: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM records WHERE connection_id = $1 AND object_type = $2) AS any_stored,
            EXISTS (SELECT 1 FROM records
                     WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL
                       AND last_synced_at < COALESCE((SELECT started_at FROM sync_runs WHERE id = $3), 'infinity'::timestamptz)) AS live_before_run`,
    [connectionId, objectType, runId],
  );
  const row = result.rows[0];
  return { anyStored: row?.any_stored ?? true, liveBeforeRun: row?.live_before_run ?? true };
}

export async function markSeen(db: Queryable, runId: string, objectType: string, platformIds: string[]): Promise<void> {
  if (platformIds.length === 0) return;
  await db.query(`INSERT INTO sync_seen (run_id, object_type, platform_id) SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING`, [
    runId,
    objectType,
    platformIds,
  ]);
}

export async function forgetSeen(db: Queryable, runId: string, objectType: string): Promise<void> {
  await db.query('DELETE FROM sync_seen WHERE run_id = $1 AND object_type = $2', [runId, objectType]);
}

export interface DeletedRecord {
  id: string;
  platform_id: string;
  data: Record<string, unknown>;
  last_synced_at: Date;
}

/** Soft-deletes by platform id; returns what was live before (the last known objects). */
export async function deleteByPlatformIds(
  db: Queryable,
  connectionId: string,
  objectType: string,
  platformIds: string[],
  at: string,
): Promise<DeletedRecord[]> {
  if (platformIds.length === 0) return [];
  const result = await db.query<DeletedRecord>(
    `UPDATE records SET deleted_at = $4, last_synced_at = $4
      WHERE connection_id = $1 AND object_type = $2 AND platform_id = ANY($3::text[]) AND deleted_at IS NULL
      RETURNING id, platform_id, data, last_synced_at`,
    [connectionId, objectType, platformIds, at],
  );
  return result.rows;
}

/**
 * After a complete full listing: live records the run did not see are gone from the platform.
 * Records stored after the run started (a write's write-through) were not in its listing and stay.
 */
export async function deleteUnseen(db: Queryable, connectionId: string, objectType: string, runId: string, at: string): Promise<DeletedRecord[]> {
  const result = await db.query<DeletedRecord>(
    `UPDATE records SET deleted_at = $4, last_synced_at = $4
      WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL
        AND last_synced_at < COALESCE((SELECT started_at FROM sync_runs WHERE id = $3), 'infinity'::timestamptz)
        AND NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.run_id = $3 AND s.object_type = $2 AND s.platform_id = records.platform_id)
      RETURNING id, platform_id, data, last_synced_at`,
    [connectionId, objectType, runId, at],
  );
  return result.rows;
}
