import type { PoolClient } from '../db/pool.ts';
import { WRITE_JOB_LOCK_KEY_SQL } from './write-jobs.ts';

/**
 * The session lock a worker holds while it executes a write job (src/writes/executor.ts): at most one process at a
 * time, and it dies with the session. False when another session holds it.
 */
export async function tryLockWriteJob(client: PoolClient, jobId: string): Promise<boolean> {
  const result = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${WRITE_JOB_LOCK_KEY_SQL}) AS ok`, [jobId]);
  return result.rows[0]?.ok === true;
}

export async function unlockWriteJob(client: PoolClient, jobId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_unlock(${WRITE_JOB_LOCK_KEY_SQL})`, [jobId]);
}
