/**
 * The text a scrape answers, in the API (GET /metrics) and in worker processes
 * (src/api/metrics/listener.ts): the process's registry, then gauges read from
 * the database at scrape time, which cover every organisation (so every process
 * reports the same values for them): webhook deliveries, and pg-boss queues (cached briefly, queue-gauges.ts).
 */
import type { Queryable } from '../../db/pool.ts';
import { metrics } from '../../metrics/registry.ts';
import { webhookGaugeLines } from '../../webhooks/admin.ts';
import { queueGaugeLines } from './queue-gauges.ts';

export const CONTENT_TYPE = metrics.contentType;

export async function renderMetrics(db: Queryable): Promise<string> {
  const [own, webhooks, queues] = await Promise.all([metrics.metrics(), webhookGaugeLines(db), queueGaugeLines(db)]);
  return `${own.endsWith('\n') ? own : `${own}\n`}${[...webhooks, ...queues].join('\n')}\n`;
}
