/**
 * The sync worker: runs queued sync runs (pg-boss queue `sync`) and enqueues
 * scheduled incremental syncs at each connection's frequency.
 */
import type { PgBoss } from 'pg-boss';
import { isConnectionLoss } from '../db/pool.ts';
import type { CoreServices } from '../core-services.ts';
import { QUEUES } from '../queue/names.ts';
import { ensureInitialSync, requestSync } from './requests.ts';
import { runSync } from './runner.ts';
import { DEFAULT_FREQUENCY_MINUTES } from '../connections/sync-config.ts';
import { dueIncrementalSyncs, failedInitialSyncsToRetry } from '../sql/due-syncs.ts';
import { listConnectors } from '../platforms/index.ts';
import { inSpan, SpanKind } from '../metrics/tracing.ts';

export interface SyncJobData {
  syncRunId: string;
  connectionId: string;
  /** Seconds before the run is tried again while its connection is busy; absent: BUSY_RETRY_SECONDS. */
  busyRetrySeconds?: number;
}

/**
 * Seconds before a run whose connection is busy (another sync holds its lock) is tried again. A run a platform's
 * webhook asked for says 1 in its job (src/sync/requests.ts): it is a few calls, and waiting 10 s behind the run
 * before it would be most of its latency; a scheduled run waiting behind an initial sync of hours polls less.
 */
const BUSY_RETRY_SECONDS = 10;
/** Pause before a failed initial sync is tried again by the schedule. */
export const INITIAL_RETRY_MINUTES = 30;

export async function startSyncWorkers(boss: PgBoss, services: CoreServices, options: { concurrency: number }): Promise<void> {
  await boss.work<SyncJobData>(QUEUES.sync, { batchSize: 1, localConcurrency: options.concurrency, pollingIntervalSeconds: 1 }, async (jobs) => {
    for (const job of jobs) {
      // A span in the trace of whoever queued the run (its context is in the job's data), when traces are on.
      const attributes = { 'messaging.system': 'pg-boss', 'messaging.destination.name': QUEUES.sync, 'ledgerport.sync_run_id': job.data.syncRunId };
      const outcome = await inSpan('sync job', { kind: SpanKind.CONSUMER, parent: job.data, attributes }, () =>
        runSync(services, job.data.syncRunId, job.signal),
      ).catch((error: unknown) => {
        // A database connection lost where the run could not ride it out (runner.ts: while taking the run, or putting
        // it back): tried again like a busy connection, not after the failure backoff of the queue.
        if (isConnectionLoss(error)) return 'busy' as const;
        throw error;
      });
      if (outcome === 'busy')
        await services.jobs.send(QUEUES.sync, { ...job.data }, { startAfterSeconds: job.data.busyRetrySeconds ?? BUSY_RETRY_SECONDS });
      // pg-boss retries the job with backoff; the run resumes from its saved progress.
      if (outcome === 'retry') throw new Error(`sync run ${job.data.syncRunId} will be retried`);
    }
  });
  await boss.schedule(QUEUES.syncScheduler, '* * * * *', {});
  await boss.work(QUEUES.syncScheduler, async () => {
    await enqueueDueSyncs(services);
  });
}

/**
 * Scheduled syncs may spend this share of a platform's daily budget, at an even pace over its window; the rest is kept
 * for writes, their follow-ups, platform webhooks and syncs clients ask for (src/sql/due-syncs.ts, SchedulePacing).
 * The busy-month bench spends 870 of Xero's 5,000 on hourly syncs (bench/xero-busy-month.ts), well inside it.
 */
export const SCHEDULED_BUDGET_SHARE = 0.8;

/** The daily budget of every registered platform that states one. */
function dailyBudgets(): Record<string, number> {
  const budgets: Record<string, number> = {};
  for (const connector of listConnectors()) {
    const budget = connector.limits.dailyRequests;
    if (budget !== undefined && budget !== null) budgets[connector.id] = budget;
  }
  return budgets;
}

/**
 * Linked, ready, not disabled connections whose last sync started longer ago
 * than their frequency, with nothing queued or running, get an incremental sync.
 */
export async function enqueueDueSyncs(
  services: CoreServices,
  now: Date = new Date(),
  budgets: Record<string, number> = dailyBudgets(),
): Promise<number> {
  const due = await dueIncrementalSyncs(services.pool, now, DEFAULT_FREQUENCY_MINUTES, { budgets, scheduledShare: SCHEDULED_BUDGET_SHARE });
  for (const id of due) {
    await requestSync(services.pool, services.jobs, id, { kind: 'incremental', trigger: 'schedule', details: {} });
  }
  // Initial syncs that failed on platform errors are tried again after a pause (401s wait for the end user to re-link).
  const retry = await failedInitialSyncsToRetry(services.pool, now, INITIAL_RETRY_MINUTES);
  for (const id of retry) await ensureInitialSync(services.pool, services.jobs, id, 'schedule');
  return due.length + retry.length;
}
