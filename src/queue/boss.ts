/**
 * pg-boss on the service's own PostgreSQL (schema `pgboss`). API processes use
 * it to enqueue; worker processes also work the queues. Queue names are in
 * src/queue/names.ts; queues and their handlers are registered in src/jobs/queues.ts.
 */
import { PgBoss } from 'pg-boss';

/** `applicationName` (default 'ledgerport-jobs') names its connections in pg_stat_activity. */
export function createBoss(databaseUrl: string, options: { schedule: boolean; applicationName?: string }): PgBoss {
  return new PgBoss({
    connectionString: databaseUrl,
    schema: 'pgboss',
    max: 10,
    application_name: options.applicationName ?? 'ledgerport-jobs',
    schedule: options.schedule,
    // Jobs of a worker that died (missed heartbeats) are handed on within ~10 s instead of a minute.
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
    // Queues with notify (writes) wake their workers the moment a job is sent, in any process.
    useListenNotify: true,
  });
}

export type { PgBoss };
