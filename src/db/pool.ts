import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// Amounts and counts come back as JS numbers: bigint counts (int8) fit easily, NUMERIC is parsed explicitly where used.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createPool(url: string, options: { max?: number; applicationName?: string } = {}): Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    application_name: options.applicationName ?? 'ledgerport',
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client that loses its server (restart, pg_terminate_backend) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
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

/** Anything that runs a query: the pool, or one client inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;
