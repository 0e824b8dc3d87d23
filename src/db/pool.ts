import pg from 'pg';
import { ApiPool } from './api-pool.ts';
import type { OrganizationGate } from './organization-gate.ts';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// Amounts and counts come back as JS numbers: bigint counts (int8) fit easily, NUMERIC is parsed explicitly where used.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface PoolOptions {
  max?: number;
  applicationName?: string;
  /** How long a checkout waits for a free connection (default 10 s). */
  acquireTimeoutMs?: number;
  /** Makes it an API pool: checkouts of an organisation's request pass this gate (src/db/api-pool.ts). */
  gate?: OrganizationGate;
}

export function createPool(url: string, options: PoolOptions = {}): Pool {
  const config: pg.PoolConfig = {
    connectionString: url,
    max: options.max ?? 20,
    application_name: options.applicationName ?? 'ledgerport',
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: options.acquireTimeoutMs ?? 10_000,
  };
  const pool = options.gate === undefined ? new pg.Pool(config) : new ApiPool(config, options.gate);
  // An idle client that loses its server (restart, pg_terminate_backend) must not crash the process.
  pool.on('error', () => undefined);
  // Nor may a checked-out one (pool.connect(): a transaction, a held advisory lock): the pool listens only to idle
  // clients, so its 'error' would go unhandled. Its query in flight or its next one fails instead, and release()
  // drops it from the pool (it is no longer queryable).
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

/**
 * SQLSTATEs of a lost session besides class 08: admin_shutdown (pg_terminate_backend), crash_shutdown,
 * cannot_connect_now; and the socket's own errors, which node-postgres hands to the statement it was sending (a
 * statement written to a connection the server just closed fails with EPIPE).
 */
const LOST_SESSION_CODES = new Set(['57P01', '57P02', '57P03', 'EPIPE', 'ECONNRESET']);
/** node-postgres's own errors for a connection that went away (they carry no SQLSTATE). */
const LOST_CONNECTION_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

/**
 * Whether `error` is the loss of a database connection (a restart, a failover, pg_terminate_backend), not a
 * statement that failed: its transaction was rolled back, and the same work may simply be done again on a new one.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  return code.startsWith('08') || LOST_SESSION_CODES.has(code) || LOST_CONNECTION_MESSAGE.test(error.message);
}

/** A trivial statement on `client`: it fails, with a connection loss, when the client's server session is gone. */
export async function checkSessionAlive(client: PoolClient): Promise<void> {
  await client.query('SELECT 1');
}

/** Runs `work` in one transaction on one client; rolls back on any error. */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Work inside the caller's transaction that may fail without failing it: rolled back to a savepoint on error, which is
 * rethrown for the caller to judge (an aborted transaction would otherwise refuse every later statement).
 */
export async function withSavepoint<T>(client: PoolClient, name: string, work: () => Promise<T>): Promise<T> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`savepoint name ${name} is not an identifier`);
  await client.query(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    await client.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
    throw error;
  }
}

/** Anything that runs a query: the pool, or one client inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;
