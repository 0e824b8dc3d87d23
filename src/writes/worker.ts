/**
 * The write worker: runs queued write jobs (pg-boss queue `write`, woken by
 * NOTIFY the moment a write is accepted) and sweeps up jobs whose queue entry
 * was lost or gave up, so no accepted write stays pending for ever.
 */
import type { JobResult, PgBoss } from 'pg-boss';
import type { CoreServices } from '../core-services.ts';
import { QUEUES } from '../queue/names.ts';
import { staleOpenJobs } from '../sql/write-jobs.ts';
import type { WriteJobData } from './accept.ts';
import { executeWriteJob } from './executor.ts';
import { inSpan, SpanKind } from '../metrics/tracing.ts';
import { readRateLimitedSince } from './rate-limit-budget.ts';

/** Seconds before a job another process is working on (its lock is held) is looked at again. */
const BUSY_RETRY_SECONDS = 5;
/** An open job untouched this long has no live queue entry driving it (attempts touch it within minutes). */
export const STALE_JOB_SECONDS = 15 * 60;

/**
 * Batches of up to BATCH jobs run side by side; while batches come back full the
 * worker fetches again at once (a backlog drains without waiting out a poll), and
 * each job is settled on its own: a retry fails only its queue entry (pg-boss
 * retries it with backoff), never its neighbours.
 */
const BATCH = 5;

export async function startWriteWorkers(boss: PgBoss, services: CoreServices, options: { concurrency: number }): Promise<void> {
  await boss.work<WriteJobData>(
    QUEUES.write,
    {
      batchSize: BATCH,
      burstWhenBatchFull: true,
      perJobResults: true,
      localConcurrency: Math.max(1, Math.ceil(options.concurrency / BATCH)),
      pollingIntervalSeconds: 1,
      notifyPollingIntervalSeconds: 5,
    },
    (jobs) =>
      Promise.all(
        jobs.map(async (job): Promise<JobResult> => {
          const attributes = { 'messaging.system': 'pg-boss', 'messaging.destination.name': QUEUES.write, 'ledgerport.job_id': job.data.jobId };
          const outcome = await inSpan('write job', { kind: SpanKind.CONSUMER, parent: job.data, attributes }, () =>
            executeWriteJob(services, job.data.jobId, job.signal, readRateLimitedSince(job.data.rateLimitedSince)),
          ).catch(() => 'retry' as const);
          if (outcome === 'busy') await services.jobs.send(QUEUES.write, { ...job.data }, { startAfterSeconds: BUSY_RETRY_SECONDS });
          // The job row says what the next attempt must check first (indeterminate writes are looked up).
          return { id: job.id, status: outcome === 'retry' ? 'failed' : 'completed', output: { outcome } };
        }),
      ),
  );
}

/** Re-queues open jobs nobody is driving (a queue entry that exhausted its retries while the worker kept dying). */
export async function requeueStaleWriteJobs(services: Pick<CoreServices, 'pool' | 'jobs'>): Promise<number> {
  const stale = await staleOpenJobs(services.pool, STALE_JOB_SECONDS, 500);
  for (const row of stale) {
    const data: WriteJobData = { jobId: row.id };
    await services.jobs.send(QUEUES.write, { ...data }, { singletonKey: `sweep:${row.id}` });
  }
  return stale.length;
}
