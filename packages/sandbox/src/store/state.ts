/**
 * Per-account state of the sandbox platform (sandbox_platform.accounts_state)
 * and the per-account lock that serialises everything that changes the books:
 * materialization, ticks and writes, across every process sharing the database.
 */
import type { Pool, PoolClient } from 'pg';
import { withTransaction } from '../../../../src/db/pool.ts';
import type { Palette } from '../documents.ts';
import type { ResolvedAccount, ScenarioName } from '../scenarios.ts';

// First key of the two-key advisory lock: "sandbox books" (the second is the account id).
export const LOCK_CLASS = 47_110_003;

/** Tables holding an account's books, emptied when the account is reset or re-materialized. */
export const ACCOUNT_TABLES = ['records', 'change_log', 'writes', 'feed_lines'] as const;

export interface AccountState {
  id: number;
  accountKey: string;
  seed: number;
  size: number;
  scenario: ScenarioName;
  asOf: string | null;
  counters: Record<string, number>;
  palette: Palette | null;
  vendorCount: number;
  customerCount: number;
  tick: number;
  seq: number;
  calls: number;
  materializedAt: Date | null;
  lastTickAt: Date | null;
  revokedAt: Date | null;
}

interface StateRow {
  id: number;
  account_key: string;
  seed: string | number;
  size: number;
  scenario: ScenarioName;
  as_of: string | null;
  counters: Record<string, number>;
  palette: Palette | null;
  vendor_count: number;
  customer_count: number;
  tick: number;
  seq: string | number;
  calls: string | number;
  materialized_at: Date | null;
  last_tick_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = `id, account_key, seed, size, scenario, as_of::text AS as_of, counters, palette, vendor_count, customer_count,
  tick, seq, calls, materialized_at, last_tick_at, revoked_at`;

function fromRow(row: StateRow): AccountState {
  return {
    id: row.id,
    accountKey: row.account_key,
    seed: Number(row.seed),
    size: row.size,
    scenario: row.scenario,
    asOf: row.as_of,
    counters: row.counters,
    palette: row.palette,
    vendorCount: row.vendor_count,
    customerCount: row.customer_count,
    tick: row.tick,
    seq: Number(row.seq),
    calls: Number(row.calls),
    materializedAt: row.materialized_at,
    lastTickAt: row.last_tick_at,
    revokedAt: row.revoked_at,
  };
}

type Queryable = Pool | PoolClient;

/** The account's state row, created on first sight. */
export async function ensureAccount(db: Queryable, account: ResolvedAccount, defaultSize: number): Promise<AccountState> {
  const existing = await loadAccount(db, account.accountKey);
  if (existing !== null) return existing;
  await db.query(
    `INSERT INTO sandbox_platform.accounts_state (account_key, seed, size, scenario) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_key) DO NOTHING`,
    [account.accountKey, account.seed, account.size ?? defaultSize, account.scenario],
  );
  const created = await loadAccount(db, account.accountKey);
  if (created === null) throw new Error(`sandbox account ${account.accountKey} vanished while being created`);
  return created;
}

export async function loadAccount(db: Queryable, accountKey: string): Promise<AccountState | null> {
  const result = await db.query<StateRow>(`SELECT ${COLUMNS} FROM sandbox_platform.accounts_state WHERE account_key = $1`, [accountKey]);
  const row = result.rows[0];
  return row === undefined ? null : fromRow(row);
}

export async function findAccountById(db: Queryable, id: number): Promise<AccountState | null> {
  const result = await db.query<StateRow>(`SELECT ${COLUMNS} FROM sandbox_platform.accounts_state WHERE id = $1`, [id]);
  const row = result.rows[0];
  return row === undefined ? null : fromRow(row);
}

export async function loadAccountById(db: Queryable, id: number): Promise<AccountState> {
  const state = await findAccountById(db, id);
  if (state === null) throw new Error(`no sandbox account ${id}`);
  return state;
}

/** Counts one API call; the fault scenarios decide from the number. */
export async function countCall(db: Queryable, id: number): Promise<number> {
  const result = await db.query<{ calls: string | number }>(
    'UPDATE sandbox_platform.accounts_state SET calls = calls + 1 WHERE id = $1 RETURNING calls',
    [id],
  );
  return Number(result.rows[0]?.calls ?? 0);
}

export async function revoke(db: Queryable, id: number, at: Date): Promise<void> {
  await db.query('UPDATE sandbox_platform.accounts_state SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1', [id, at]);
}

/** Runs `work` in a transaction holding the account's lock; the state is re-read under the lock. */
export async function withAccountLock<T>(pool: Pool, id: number, work: (client: PoolClient, state: AccountState) => Promise<T>): Promise<T> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, id]);
    return work(client, await loadAccountById(client, id));
  });
}

/** Forgets an account and its books entirely (tests, or a user who wants a fresh business). */
export async function resetAccount(pool: Pool, accountKey: string): Promise<void> {
  const state = await loadAccount(pool, accountKey);
  if (state === null) return;
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, state.id]);
    for (const table of ACCOUNT_TABLES) {
      await client.query(`DELETE FROM sandbox_platform.${table} WHERE account_id = $1`, [state.id]);
    }
    await client.query('DELETE FROM sandbox_platform.accounts_state WHERE id = $1', [state.id]);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, state.id]).catch(() => undefined);
    client.release();
  }
}
