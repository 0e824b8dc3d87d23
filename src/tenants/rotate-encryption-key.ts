/**
 * `ledgerport rotate-encryption-key`: re-seals every stored secret with the current key (ENCRYPTION_KEY), so the
 * previous ones (ENCRYPTION_KEY_PREVIOUS) can be dropped (docs/operations.md, "Rotating the key").
 *
 * Column by column (src/sql/sealed-values.ts), in batches of one transaction each: the batch's rows are locked
 * (FOR NO KEY UPDATE SKIP LOCKED: a row an API or worker process is changing is passed over, and taken by a later pass), each
 * value opened with the key ring and sealed again with the current key, and written back. What is sealed with the
 * current key already is never selected, so a run stopped anywhere (a crash loses at most its open batch, rolled
 * back) is resumed by running it again, and a run with nothing left to do writes nothing. Last, once no value needs
 * a previous key, the key check that start-up verifies is re-sealed too: from then on the previous keys may go.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { UnreadableSecretError, type KeyRing } from '../crypto/secrets.ts';
import { withTransaction, type Pool } from '../db/pool.ts';
import {
  countStaleSealedValues,
  lockEncryptionKeyCheck,
  lockStaleSealedValues,
  replaceEncryptionKeyCheck,
  SEALED_COLUMNS,
  storeResealedValues,
  type ResealedValue,
  type SealedColumn,
  type StaleSealedValue,
} from '../sql/sealed-values.ts';

export const DEFAULT_ROTATION_BATCH = 500;
/** Passes over a column before giving up on rows other transactions keep locked (run the command again later). */
const MAX_PASSES = 5;
/** Unreadable values named in the report, at most (all are counted). */
const UNREADABLE_LISTED = 50;

export interface UnreadableValue {
  table: string;
  column: string;
  /** The row's primary key, column by column. */
  key: Record<string, string>;
  error: string;
}

export interface ColumnRotation {
  table: string;
  column: string;
  /** Values re-sealed with the current key by this run. */
  resealed: number;
  /** Values still not sealed with the current key after this run (the unreadable ones included). */
  remaining: number;
}

export interface RotationReport {
  current_key: string;
  previous_keys: readonly string[];
  /** Values re-sealed by this run, in all. */
  resealed: number;
  /** Values no configured key opens (sealed with another key, or damaged): each needs the operator, see `unreadable`. */
  unreadable_count: number;
  unreadable: UnreadableValue[];
  /** Values a previous key still opens that this run could not take (rows kept locked): run the command again. */
  remaining_under_previous_keys: number;
  /** The start-up key check: sealed with the current key already, re-sealed now, or left (values remain). */
  key_check: 'current' | 'resealed' | 'left under a previous key' | 'absent';
  columns: ColumnRotation[];
  /** True when no value needs a previous key any more: ENCRYPTION_KEY_PREVIOUS may be removed from every process. */
  previous_keys_unused: boolean;
  summary: string;
}

export interface RotationOptions {
  batchSize?: number;
  /** Progress lines (the CLI writes them to stderr). */
  log?: (message: string) => void;
  /** Pause between passes over a column with rows left locked; default 1 s. */
  retryPauseMs?: number;
}

export async function rotateEncryptionKey(pool: Pool, ring: KeyRing, options: RotationOptions = {}): Promise<RotationReport> {
  const batchSize = options.batchSize ?? DEFAULT_ROTATION_BATCH;
  const log = options.log ?? (() => undefined);
  const columns: ColumnRotation[] = [];
  const unreadable: UnreadableValue[] = [];
  let unreadableCount = 0;
  for (const column of SEALED_COLUMNS) {
    const result = await rotateColumn(pool, ring, column, batchSize, options.retryPauseMs ?? 1_000);
    columns.push({ table: column.table, column: column.column, resealed: result.resealed, remaining: result.remaining });
    unreadableCount += result.unreadable.length;
    unreadable.push(...result.unreadable.slice(0, Math.max(0, UNREADABLE_LISTED - unreadable.length)));
    if (result.resealed > 0 || result.remaining > 0)
      log(`${column.table}.${column.column}: ${result.resealed} re-sealed, ${result.remaining} not under the current key`);
  }
  const remaining = columns.reduce((sum, c) => sum + c.remaining, 0);
  const underPrevious = remaining - unreadableCount;
  const keyCheck = await rotateKeyCheck(pool, ring, underPrevious === 0);
  const previousUnused = underPrevious === 0 && keyCheck !== 'left under a previous key';
  const resealed = columns.reduce((sum, c) => sum + c.resealed, 0);
  return {
    current_key: ring.currentKeyId,
    previous_keys: ring.previousKeyIds,
    resealed,
    unreadable_count: unreadableCount,
    unreadable,
    remaining_under_previous_keys: underPrevious,
    key_check: keyCheck,
    columns,
    previous_keys_unused: previousUnused,
    summary: summaryOf(ring, resealed, underPrevious, unreadableCount, previousUnused),
  };
}

function summaryOf(ring: KeyRing, resealed: number, underPrevious: number, unreadable: number, previousUnused: boolean): string {
  const parts = [`${resealed} values re-sealed with key ${ring.currentKeyId} (ENCRYPTION_KEY).`];
  if (previousUnused)
    parts.push(
      ring.previousKeyIds.length > 0
        ? `No value is sealed with a previous key any more: remove ENCRYPTION_KEY_PREVIOUS (keys ${ring.previousKeyIds.join(', ')}) from every process and restart them.`
        : 'No value is sealed with a previous key.',
    );
  else
    parts.push(
      `${underPrevious} values are still sealed with a previous key (their rows were kept locked by other work): keep ENCRYPTION_KEY_PREVIOUS and run the command again.`,
    );
  if (unreadable > 0)
    parts.push(
      `${unreadable} values open with none of the configured keys (listed in "unreadable"): they were sealed with a key this process does not have, or are damaged; add that key to ENCRYPTION_KEY_PREVIOUS and run again, or replace those secrets.`,
    );
  return parts.join(' ');
}

interface ColumnResult {
  resealed: number;
  unreadable: UnreadableValue[];
  remaining: number;
}

/** Passes over the column until every value a key opens is under the current key, or MAX_PASSES. */
async function rotateColumn(pool: Pool, ring: KeyRing, column: SealedColumn, batchSize: number, pauseMs: number): Promise<ColumnResult> {
  let resealed = 0;
  for (let pass = 1; ; pass++) {
    const done = await rotatePass(pool, ring, column, batchSize);
    resealed += done.resealed;
    const remaining = await countStaleSealedValues(pool, column, ring.currentPrefix);
    // What is left is what no key opens (found in this pass), or rows other transactions held: those are tried again.
    if (remaining <= done.unreadable.length || pass === MAX_PASSES) return { resealed, unreadable: done.unreadable, remaining };
    await sleep(pauseMs);
  }
}

/** One walk over the column in primary key order, a batch per transaction. */
async function rotatePass(
  pool: Pool,
  ring: KeyRing,
  column: SealedColumn,
  batchSize: number,
): Promise<{ resealed: number; unreadable: UnreadableValue[] }> {
  let after: string[] | null = null;
  let resealed = 0;
  const unreadable: UnreadableValue[] = [];
  for (;;) {
    const batch = await withTransaction(pool, async (db) => {
      const rows = await lockStaleSealedValues(db, column, ring.currentPrefix, after, batchSize);
      const values: ResealedValue[] = [];
      for (const row of rows) {
        const opened = reseal(ring, column, row);
        if (opened.ok) values.push({ key: row.key, before: row.stored, after: opened.value });
        else unreadable.push({ table: column.table, column: column.column, key: keyRecord(column, row.key), error: opened.error });
      }
      resealed += await storeResealedValues(db, column, values);
      return rows;
    });
    const last = batch.at(-1);
    if (last === undefined || batch.length < batchSize) return { resealed, unreadable };
    after = last.key;
  }
}

function keyRecord(column: SealedColumn, key: readonly string[]): Record<string, string> {
  return Object.fromEntries(column.key.map((k, i) => [k.name, key[i] ?? '']));
}

const PAGE_TOKEN_PREFIX = 'sealed:';

/** The value sealed again with the current key, in the column's encoding; or why no key opens it. */
function reseal(ring: KeyRing, column: SealedColumn, row: StaleSealedValue): { ok: true; value: Buffer | string } | { ok: false; error: string } {
  const sealed = typeof row.stored === 'string' ? Buffer.from(row.stored.slice(PAGE_TOKEN_PREFIX.length), 'base64url') : row.stored;
  let plaintext: string;
  try {
    plaintext = ring.decrypt(sealed);
  } catch (error) {
    if (error instanceof UnreadableSecretError) return { ok: false, error: error.message };
    throw error;
  }
  const again = ring.encrypt(plaintext);
  return { ok: true, value: column.encoding === 'bytea' ? again : `${PAGE_TOKEN_PREFIX}${again.toString('base64url')}` };
}

/** Re-seals the start-up key check with the current key, once nothing needs a previous key (`ready`). */
async function rotateKeyCheck(pool: Pool, ring: KeyRing, ready: boolean): Promise<RotationReport['key_check']> {
  return withTransaction(pool, async (db) => {
    const stored = await lockEncryptionKeyCheck(db);
    if (stored === null) return 'absent';
    const sealed = Buffer.from(stored, 'base64');
    if (ring.sealedWithCurrentKey(sealed)) return 'current';
    if (!ready) return 'left under a previous key';
    // Start-up checks the key against this value: an unreadable one is start-up's to refuse, not ours to replace.
    const opened = ring.decrypt(sealed);
    await replaceEncryptionKeyCheck(db, JSON.stringify(ring.encrypt(opened).toString('base64')));
    return 'resealed';
  });
}
