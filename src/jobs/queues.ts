/**
 * Every queue the workers serve, with its handler. A worker process calls
 * startWorkers; API processes only send.
 */
import type { PgBoss } from 'pg-boss';
import type { Services } from '../services.ts';
import { deleteExpiredIdempotencyKeys } from '../sql/idempotency.ts';
import { startSyncWorkers } from '../sync/worker.ts';

import { QUEUES } from './queue-names.ts';

export { QUEUES };

const QUEUE_OPTIONS = {
  [QUEUES.maintenance]: { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 },
  // Heartbeats let a run whose worker died (kill -9) be handed to another worker within seconds, not at expiry.
  [QUEUES.sync]: { retryLimit: 8, retryDelay: 15, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 6 * 3600, heartbeatSeconds: 10 },
  [QUEUES.syncScheduler]: { retryLimit: 0, expireInSeconds: 120 },
} as const;

/** Creates every queue, and brings existing ones to the current options. */
export async function createQueues(boss: PgBoss): Promise<void> {
  for (const [name, options] of Object.entries(QUEUE_OPTIONS)) {
    if ((await boss.getQueue(name)) === null) await boss.createQueue(name, options);
    else await boss.updateQueue(name, options);
  }
}

/** Housekeeping: expired idempotency records go after their 24 h. */
export async function runMaintenance(services: Pick<Services, 'pool'>): Promise<{ idempotencyKeysDeleted: number }> {
  return { idempotencyKeysDeleted: await deleteExpiredIdempotencyKeys(services.pool) };
}

export async function startWorkers(boss: PgBoss, services: Services): Promise<void> {
  await startSyncWorkers(boss, services, { concurrency: 2 });
  await boss.schedule(QUEUES.maintenance, '*/15 * * * *', {});
  await boss.work(QUEUES.maintenance, async () => {
    const result = await runMaintenance(services);
    return result;
  });
}
