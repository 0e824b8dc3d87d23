/**
 * Accepting a write: the job row (and its uploaded file) and its queue entry
 * are inserted in one transaction, so an accepted write is never lost and
 * never queued without its row. A request carrying an Idempotency-Key that a
 * job already has joins that job instead of creating a second one: a client
 * retrying after a crash of ours, whenever it retries, gets the one write.
 */
import { withTransaction, type Pool } from '../db/pool.ts';
import { ServiceError } from '../errors/catalogue.ts';
import type { JobSender } from '../queue/sender.ts';
import { QUEUES } from '../queue/names.ts';
import { findJobByIdempotencyKey, insertJobFile, insertWriteJob, type JobFile, type NewWriteJob, type WriteJob } from '../sql/write-jobs.ts';

export interface WriteJobData {
  jobId: string;
  /** When the platform first rate-limited the job (ISO), carried by the entries that retry it (src/writes/rate-limit-budget.ts). */
  rateLimitedSince?: string;
}

export async function acceptWrite(
  pool: Pool,
  jobs: JobSender,
  job: NewWriteJob,
  file: JobFile | null = null,
): Promise<{ job: WriteJob; joined: boolean }> {
  return withTransaction(pool, async (db) => {
    const created = await insertWriteJob(db, job);
    if (created === null) {
      const key = job.idempotencyKey ?? '';
      const existing = await findJobByIdempotencyKey(db, job.tenant, key);
      if (existing === null) throw new Error(`write job with Idempotency-Key ${key} vanished`);
      if (
        existing.connectionId !== job.connectionId ||
        existing.operation !== job.operation ||
        existing.objectType !== job.objectType ||
        existing.targetId !== job.targetId
      ) {
        throw new ServiceError(
          'IDEMPOTENCY_KEY_MISMATCH',
          `Idempotency-Key "${key}" already belongs to job ${existing.id} (${existing.request.method} ${existing.request.path}); use a new key for a different write.`,
          { source: 'service', field: 'Idempotency-Key', location: 'headers' },
        );
      }
      return { job: existing, joined: true };
    }
    if (file !== null) await insertJobFile(db, created.id, file);
    const data: WriteJobData = { jobId: created.id };
    // The write queue has NOTIFY on (src/jobs/queues.ts): a worker wakes as soon as this commits.
    await jobs.send(QUEUES.write, { ...data }, {}, db);
    return { job: created, joined: false };
  });
}
