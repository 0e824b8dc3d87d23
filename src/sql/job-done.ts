import type { Queryable } from '../db/pool.ts';

/** The channel a finished write job is announced on; requests waiting for it listen (src/writes/waiter.ts). */
export const JOB_DONE_CHANNEL = 'ledgerport_jobs_done';

/** Wakes the requests waiting for the job when the transaction that finished it commits. */
export async function notifyJobDone(db: Queryable, jobId: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [JOB_DONE_CHANNEL, jobId]);
}
