/** The benchmark report: what was measured, and each result against the target issue 10 set for it. */
import type { StartMeasure } from './footprint.ts';
import type { IngestResult } from './ingest.ts';
import type { ReadResult } from './read.ts';
import type { WebhookResult } from './webhooks.ts';

export interface BenchReport {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; postgres: string };
  settings: { records: number; seconds: number; clients: number; webhookBurst: number };
  ingest: IngestResult;
  reads: ReadResult;
  webhooks: WebhookResult;
  footprint: {
    emptyStart: { runs: StartMeasure[]; startSeconds: number; idleRssMb: number };
    loadedStart: StartMeasure & { storedRecords: number };
  };
  totalSeconds: number;
}

const n = (value: number): string => value.toLocaleString('en-US');
const verdict = (reached: boolean): string => (reached ? 'reached' : '**not reached**');

export function formatReport(r: BenchReport): string {
  const { reads, ingest, webhooks, footprint } = r;
  const rows: [string, string, string, string][] = [
    [
      `List bills (filter, default sort), ${n(reads.storeRecords)} records / ${reads.connections} connections, ${reads.clients} clients`,
      `${n(reads.ledgerport.requestsPerSecond)} req/s, p50 ${reads.ledgerport.p50Ms} ms, p99 ${reads.ledgerport.p99Ms} ms`,
      '',
      '',
    ],
    [
      'Bare Fastify + pg handler, same SQL and bytes',
      `${n(reads.bare.requestsPerSecond)} req/s, p50 ${reads.bare.p50Ms} ms, p99 ${reads.bare.p99Ms} ms`,
      '',
      '',
    ],
    ['List throughput vs bare', `${reads.throughputVsBare}x`, '≥ 0.8x', verdict(reads.throughputVsBare >= 0.8)],
    ['List p99', `${reads.ledgerport.p99Ms} ms`, '< 25 ms', verdict(reads.ledgerport.p99Ms < 25)],
    [
      `Page 1 vs page 1,000 (${n(reads.deep.bills)}-bill connection)`,
      `${n(reads.deep.page1.requestsPerSecond)} → ${n(reads.deep.page1000.requestsPerSecond)} req/s, p50 ${reads.deep.page1.p50Ms} → ${reads.deep.page1000.p50Ms} ms (${reads.deep.p50Ratio}x), p99 ${reads.deep.page1.p99Ms} → ${reads.deep.page1000.p99Ms} ms`,
      '≤ 1.2x',
      verdict(reads.deep.p50Ratio <= 1.2 && reads.deep.throughputRatio <= 1.2),
    ],
    [
      `Initial sync, ${n(ingest.initial.recordsRead)} records`,
      `${n(ingest.initial.recordsPerSecond)} records/s (${ingest.initial.seconds} s)`,
      '',
      '',
    ],
    ['COPY of the same rows into a bare table', `${n(ingest.copy.rowsPerSecond)} rows/s (${ingest.copy.seconds} s)`, '', ''],
    ['Ingest vs COPY', `${ingest.initialVsCopy}x`, '≥ 0.3x', verdict(ingest.initialVsCopy >= 0.3)],
    [
      `Incremental sync, ${n(ingest.incremental.changedOnPlatform)} changed (1%)`,
      `${ingest.incremental.seconds} s, ${n(ingest.incremental.rowsWritten)} rows written, ${n(ingest.incremental.events)} events`,
      '',
      '',
    ],
    [
      'Unchanged full resync',
      `${ingest.unchangedResync.seconds} s, ${n(ingest.unchangedResync.rowsWritten)} rows written, ${n(ingest.unchangedResync.events)} events`,
      '0 rows',
      verdict(ingest.unchangedResync.rowsWritten === 0),
    ],
    [
      `Signed webhook deliveries (burst of ${n(webhooks.burst.events)})`,
      `${n(webhooks.burst.deliveriesPerSecond)}/s`,
      '≥ 1,000/s',
      verdict(webhooks.burst.deliveriesPerSecond >= 1000),
    ],
    [
      `Event to first attempt at ${webhooks.steady.eventsPerSecond} events/s`,
      `p50 ${webhooks.steady.firstAttemptP50Ms} ms, p99 ${webhooks.steady.firstAttemptP99Ms} ms`,
      '',
      '',
    ],
    ['Cold start, empty data dir (median of 3)', `${footprint.emptyStart.startSeconds} s`, '< 3 s', verdict(footprint.emptyStart.startSeconds < 3)],
    [
      `Cold start, ${n(footprint.loadedStart.storedRecords)} stored records`,
      `${footprint.loadedStart.startSeconds} s`,
      '< 3 s',
      verdict(footprint.loadedStart.startSeconds < 3),
    ],
    ['Idle memory (RSS of npm start)', `${footprint.emptyStart.idleRssMb} MB`, '< 150 MB', verdict(footprint.emptyStart.idleRssMb < 150)],
    ['API memory under the read benchmark (RSS)', `${reads.apiRssUnderLoadMb} MB (idle ${reads.apiRssIdleMb} MB)`, '', ''],
  ];
  const header = `Machine: ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGb} GiB; Node ${r.machine.node}; PostgreSQL ${r.machine.postgres}; ${r.date.slice(0, 10)}`;
  return [header, '', '| Measure | Result | Target | |', '|---|---|---|---|', ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}
