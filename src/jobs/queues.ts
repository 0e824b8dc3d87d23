/**
 * Every queue the workers serve, with its handler. A worker process calls
 * startWorkers; API processes only send (through src/queue/, which knows the
 * queue names but no handler: syncs and writes enqueue without importing this).
 */
import type { PgBoss } from 'pg-boss';
import type { CoreServices } from '../core-services.ts';
import { deleteExpiredIdempotencyKeys } from '../sql/idempotency.ts';
import { startSyncWorkers } from '../sync/worker.ts';
import { forgetOldIdempotencyKeys } from '../sql/write-jobs.ts';
import { deleteOldWebhookReceipts } from '../sql/platform-webhooks.ts';
import { pruneRequestLogs } from '../sql/prune-request-logs.ts';
import { prunePolledRequests } from '../sql/prune-polled-requests.ts';
import { withIds } from '../log/logger.ts';
import { requeueStaleWriteJobs, startWriteWorkers } from '../writes/worker.ts';
import { QUEUES } from '../queue/names.ts';
import { WRITE_RETRY_DELAY_MAX_SECONDS, WRITE_RETRY_DELAY_SECONDS } from '../writes/rate-limit-budget.ts';

const QUEUE_OPTIONS = {
  [QUEUES.maintenance]: { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 },
  // Heartbeats let a run whose worker died (kill -9) be handed to another worker within seconds, not at expiry.
  [QUEUES.sync]: { retryLimit: 8, retryDelay: 15, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 6 * 3600, heartbeatSeconds: 10 },
  [QUEUES.syncScheduler]: { retryLimit: 0, expireInSeconds: 120 },
  // Writes: NOTIFY wakes a worker at once; heartbeats hand a killed worker's write on within seconds;
  // the job row's own attempt limit (MAX_WRITE_ATTEMPTS) ends a job before these retries run out; a rate-limited
  // write is retried by its own entry on the same backoff (src/writes/rate-limit-budget.ts).
  [QUEUES.write]: {
    retryLimit: 12,
    retryDelay: WRITE_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    retryDelayMax: WRITE_RETRY_DELAY_MAX_SECONDS,
    expireInSeconds: 900,
    heartbeatSeconds: 10,
    notify: true,
  },
} as const;

/** Creates every queue, and brings existing ones to the current options. */
export async function createQueues(boss: PgBoss): Promise<void> {
  for (const [name, options] of Object.entries(QUEUE_OPTIONS)) {
    if ((await boss.getQueue(name)) === null) await boss.createQueue(name, options);
    else await boss.updateQueue(name, options);
  }
}

/**
 * Housekeeping (every 15 minutes): expired idempotency records go after their 24 h; writes nobody drives are queued
 * again; the request log keeps its age and size bounds; answers of platforms that call us go with their jobs.
 */
export async function runMaintenance(services: Pick<CoreServices, 'pool' | 'jobs' | 'config'>): Promise<{
  idempotencyKeysDeleted: number;
  writeKeysForgotten: number;
  writeJobsRequeued: number;
  platformWebhooksForgotten: number;
  requestLogRowsPruned: number;
  polledRequestsPruned: number;
}> {
  return {
    idempotencyKeysDeleted: await deleteExpiredIdempotencyKeys(services.pool),
    writeKeysForgotten: await forgetOldIdempotencyKeys(services.pool, 24 * 3600),
    writeJobsRequeued: await requeueStaleWriteJobs(services),
    // Platform webhook receipts are for an operator looking back at a few days.
    platformWebhooksForgotten: await deleteOldWebhookReceipts(services.pool, 7),
    requestLogRowsPruned: await pruneRequestLogs(services.pool, services.config.requestLog),
    // Platforms that call us: answers of runs and writes that are over (docs/connectors.md, "Platforms that call us").
    polledRequestsPruned: await prunePolledRequests(services.pool),
  };
}

export async function startWorkers(boss: PgBoss, services: CoreServices): Promise<void> {
  await startSyncWorkers(boss, services, { concurrency: 2 });
  await startWriteWorkers(boss, services, { concurrency: 5 });
  await boss.schedule(QUEUES.maintenance, '*/15 * * * *', {});
  await boss.work(QUEUES.maintenance, async ([job]) => {
    const result = await runMaintenance(services);
    // Across organisations: the line carries the job's id and what each clean-up removed.
    withIds(services.log, job === undefined ? {} : { job_id: job.id }).info(result, 'maintenance done');
    return result;
  });
}
