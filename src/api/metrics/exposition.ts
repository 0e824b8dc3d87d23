/**
 * The text a scrape answers, in the API (GET /metrics) and in worker processes
 * (src/api/metrics/listener.ts): the process's registry, then gauges read from
 * the database at scrape time, which cover every organisation (so every process
 * reports the same values for them).
 */
import type { Queryable } from '../../db/pool.ts';
import { metrics } from '../../metrics/registry.ts';
import { webhookGaugeLines } from '../../webhooks/admin.ts';

export const CONTENT_TYPE = metrics.contentType;

export async function renderMetrics(db: Queryable): Promise<string> {
  const [own, gauges] = await Promise.all([metrics.metrics(), webhookGaugeLines(db)]);
  return `${own.endsWith('\n') ? own : `${own}\n`}${gauges.join('\n')}\n`;
}
