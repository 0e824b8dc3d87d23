/**
 * Every queue the workers serve, with its handler. A worker process calls
 * startWorkers; API processes only send.
 */
import type { PgBoss } from 'pg-boss';
import type { Services } from '../services.ts';
import { deleteExpiredIdempotencyKeys } from '../sql/idempotency.ts';

import { QUEUES } from './queue-names.ts';

export { QUEUES };

export async function createQueues(boss: PgBoss): Promise<void> {
  await boss.createQueue(QUEUES.maintenance, { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 });
  await boss.createQueue(QUEUES.sync, { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 3600 });
}

/** Housekeeping: expired idempotency records go after their 24 h. */
export async function runMaintenance(services: Pick<Services, 'pool'>): Promise<{ idempotencyKeysDeleted: number }> {
  return { idempotencyKeysDeleted: await deleteExpiredIdempotencyKeys(services.pool) };
}

export async function startWorkers(boss: PgBoss, services: Services): Promise<void> {
  await boss.schedule(QUEUES.maintenance, '*/15 * * * *', {});
  await boss.work(QUEUES.maintenance, async () => {
    const result = await runMaintenance(services);
    return result;
  });
}
