/**
 * Queue depth and oldest-job age per pg-boss queue, read from PostgreSQL at scrape time. Every process answers the
 * same values (they cover the whole database); each keeps what it read for QUEUE_GAUGE_TTL_MS, and scrapes that
 * arrive while a read runs share it, so several Prometheus servers scraping several processes cost PostgreSQL at
 * most one small statement per process every few seconds.
 */
import type { Queryable } from '../../db/pool.ts';
import { queueDepths, type QueueDepthRow } from '../../sql/queue-depth.ts';

export const QUEUE_GAUGE_TTL_MS = 5_000;

interface Cached {
  at: number;
  rows: Promise<QueueDepthRow[]>;
}

const cache = new WeakMap<Queryable, Cached>();

function readDepths(db: Queryable, now: number): Promise<QueueDepthRow[]> {
  const cached = cache.get(db);
  if (cached !== undefined && now - cached.at < QUEUE_GAUGE_TTL_MS) return cached.rows;
  const rows = queueDepths(db);
  cache.set(db, { at: now, rows });
  // A failed read is not kept: the next scrape tries again.
  rows.catch(() => {
    if (cache.get(db)?.rows === rows) cache.delete(db);
  });
  return rows;
}

const label = (queue: string): string => queue.replace(/["\\\n]/g, '_');

/** The gauges' exposition lines. */
export async function queueGaugeLines(db: Queryable, now = Date.now()): Promise<string[]> {
  const rows = await readDepths(db, now);
  return [
    '# HELP ledgerport_queue_jobs_waiting Jobs waiting in each pg-boss queue, by state (ready: may start now; deferred: start later), all processes.',
    '# TYPE ledgerport_queue_jobs_waiting gauge',
    ...rows.flatMap((r) => [
      `ledgerport_queue_jobs_waiting{queue="${label(r.queue)}",state="ready"} ${r.ready}`,
      `ledgerport_queue_jobs_waiting{queue="${label(r.queue)}",state="deferred"} ${r.deferred}`,
    ]),
    '# HELP ledgerport_queue_oldest_ready_job_age_seconds Seconds the oldest ready job of each pg-boss queue has waited since it could start (0 when none waits).',
    '# TYPE ledgerport_queue_oldest_ready_job_age_seconds gauge',
    ...rows.map((r) => `ledgerport_queue_oldest_ready_job_age_seconds{queue="${label(r.queue)}"} ${r.oldest_ready_seconds}`),
  ];
}
