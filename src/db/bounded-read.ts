/**
 * A data read with a statement timeout: one read-only transaction whose statements PostgreSQL stops after
 * `timeoutMs`, answered as 400 QUERY_TIMEOUT. Only reads get it: a connection delete or a migration may take
 * longer and must finish.
 */
import { ServiceError, type ErrorMetadata } from '../errors/catalogue.ts';
import type { Pool, PoolClient } from './pool.ts';

/** query_canceled: PostgreSQL stopped the statement (here: its statement_timeout). */
const QUERY_CANCELED = '57014';

function isCanceled(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === QUERY_CANCELED;
}

export async function boundedRead<T>(
  pool: Pool,
  timeoutMs: number,
  blame: Pick<ErrorMetadata, 'field' | 'location'>,
  work: (db: PoolClient) => Promise<T>,
): Promise<T> {
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new Error(`statement timeout must be a positive integer (got ${timeoutMs})`);
  const client = await pool.connect();
  try {
    // One round trip for both; the value is a checked integer, so it is written into the statement.
    await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${timeoutMs}`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (!isCanceled(error)) throw error;
    const seconds = timeoutMs / 1000;
    throw new ServiceError(
      'QUERY_TIMEOUT',
      `The read ran longer than ${seconds} s and was stopped; narrow the filter, lower limit or leave out expand=platform_data, then try again.`,
      { source: 'service', ...blame, statement_timeout_ms: timeoutMs },
    );
  } finally {
    client.release();
  }
}
