/**
 * Lazily turns an account into books: generates the history and streams it into
 * sandbox_platform.records. Batches go out as one multi-row INSERT each, over a
 * few connections in parallel, while the next batch is being generated. The
 * account's lock (held in a session) keeps other processes waiting; the books
 * become visible only when materialized_at is set at the very end, so a reader
 * never sees half of them, and an interrupted run is cleaned up by the next.
 */
import type { Pool, PoolClient } from 'pg';
import { collectionOf, lookupOf } from '../collections.ts';
import { toDateOnly } from '../dates.ts';
import { BookGenerator, type GeneratedRecord } from '../generator/index.ts';
import type { SandboxOptions } from '../options.ts';
import { ACCOUNT_TABLES, LOCK_CLASS, loadAccountById, type AccountState } from './state.ts';

const BATCH = 4_000;

export const INSERT_RECORDS = `INSERT INTO sandbox_platform.records (account_id, object_type, platform_id, data, business_date, updated_at, lookup)
  SELECT $1, x.t, x.p, x.d, x.b, x.u, x.k FROM json_to_recordset($2::json) AS x(t text, p text, d json, b date, u timestamptz, k text)`;

/** One JSON parameter for a whole batch: far cheaper than one parameter per value. */
export function batchParameter(records: readonly GeneratedRecord[]): string {
  return JSON.stringify(
    records.map((r) => ({ t: r.type, p: r.id, d: r.data, b: r.date, u: r.data.UpdatedAt, k: lookupOf(collectionOf(r.type), r.data) })),
  );
}

export interface MaterializeResult {
  records: number;
  ms: number;
}

/** Materializes the account's books unless done; returns what it did (null when there was nothing to do). */
export async function materialize(pool: Pool, state: AccountState, options: SandboxOptions): Promise<MaterializeResult | null> {
  if (state.materializedAt !== null) return null;
  const started = performance.now();
  const lock = await pool.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, state.id]);
    const current = await loadAccountById(lock, state.id);
    if (current.materializedAt !== null) return null;
    for (const table of ACCOUNT_TABLES) {
      await lock.query(`DELETE FROM sandbox_platform.${table} WHERE account_id = $1`, [state.id]);
    }
    const asOf = options.asOf ?? toDateOnly(options.now());
    const generator = new BookGenerator({
      seed: current.seed,
      size: current.size,
      asOf,
      madeAt: options.now(),
      months: options.months,
      batchSize: BATCH,
    });
    const count = await insertAll(pool, lock, state.id, generator.batches(), current.size >= 20_000 ? options.insertConnections : 1);
    // Fresh statistics, or the planner may still think the table is tiny and sort instead of walking the key.
    if (count >= 20_000) await lock.query('ANALYZE sandbox_platform.records');
    const summary = generator.summary;
    if (summary === null) throw new Error('sandbox generator stopped early');
    await lock.query(
      `UPDATE sandbox_platform.accounts_state SET as_of = $2, counters = $3, palette = $4, vendor_count = $5, customer_count = $6,
         materialized_at = $7, last_tick_at = $7, seq = 0, tick = 0 WHERE id = $1`,
      [
        state.id,
        asOf,
        JSON.stringify(summary.counters),
        JSON.stringify(summary.palette),
        summary.vendors,
        summary.customers,
        new Date(options.now()),
      ],
    );
    return { records: count, ms: Math.round(performance.now() - started) };
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, state.id]).catch(() => undefined);
    lock.release();
  }
}

/** Streams batches into the table, keeping one statement in flight per connection. */
async function insertAll(
  pool: Pool,
  first: PoolClient,
  accountId: number,
  batches: Iterable<GeneratedRecord[]>,
  connections: number,
): Promise<number> {
  const clients: PoolClient[] = [first];
  const inFlight: Promise<unknown>[] = [];
  try {
    for (let n = 1; n < connections; n++) clients.push(await pool.connect());
    let slot = 0;
    let count = 0;
    for (const batch of batches) {
      for (let i = 0; i < batch.length; i += BATCH) {
        const part = batch.slice(i, i + BATCH);
        // Generate while the server inserts: the wait happens only after the next batch is ready.
        const previous = inFlight[slot];
        if (previous !== undefined) await previous;
        const client = clients[slot];
        if (client === undefined) throw new Error('no insert connection');
        const insert = client.query(INSERT_RECORDS, [accountId, batchParameter(part)]);
        // Marked handled now; its failure surfaces when it is awaited.
        insert.catch(() => undefined);
        inFlight[slot] = insert;
        count += part.length;
        slot = (slot + 1) % clients.length;
      }
    }
    await Promise.all(inFlight);
    return count;
  } catch (error) {
    await Promise.allSettled(inFlight);
    throw error;
  } finally {
    for (const client of clients.slice(1)) client.release();
  }
}
