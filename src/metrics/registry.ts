/**
 * The process's Prometheus registry (prom-client). Per process, as Prometheus
 * expects: scrape every API process at GET /metrics and every worker process
 * at its METRICS_PORT (src/metrics/listener.ts); ledgerport_process_info{role}
 * says which one answered. Node's own process metrics (CPU, memory, event-loop
 * lag, GC) come with the `ledgerport_` prefix.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const metrics = new Registry();
collectDefaultMetrics({ register: metrics, prefix: 'ledgerport_' });

const registers = [metrics];

export const webhookDeliveries = new Counter({
  name: 'ledgerport_webhook_deliveries_total',
  help: 'Webhook deliveries finished, by outcome (delivered, failed).',
  labelNames: ['outcome'],
  registers,
});
export const webhookAttempts = new Counter({
  name: 'ledgerport_webhook_attempts_total',
  help: 'Webhook delivery attempts, by result (success, http_error, timeout, network, refused).',
  labelNames: ['result'],
  registers,
});
export const webhookLatency = new Histogram({
  name: 'ledgerport_webhook_attempt_duration_seconds',
  help: 'Duration of webhook delivery attempts.',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers,
});
export const webhookDelay = new Histogram({
  name: 'ledgerport_webhook_enqueue_to_attempt_seconds',
  help: "From the event's creation to the start of its first delivery attempt.",
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
  registers,
});
export const httpConnectionsShed = new Counter({
  name: 'ledgerport_http_connections_shed_total',
  help: 'Client sockets closed by the connection caps, by reason (client_limit, total_limit, evicted).',
  labelNames: ['reason'],
  registers,
});
export const syncRuns = new Counter({
  name: 'ledgerport_sync_runs_total',
  help: 'Sync runs that ended in this process, by platform, kind and outcome (completed, failed, retry, skipped).',
  labelNames: ['platform', 'kind', 'outcome'],
  registers,
});
export const syncRunDuration = new Histogram({
  name: 'ledgerport_sync_run_duration_seconds',
  help: 'Duration of one delivery of a sync run (a resumed run counts each delivery), by platform and kind.',
  labelNames: ['platform', 'kind'],
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
  registers,
});
export const writeAttempts = new Counter({
  name: 'ledgerport_write_attempts_total',
  help: 'Write job attempts that ended in this process, by platform, operation and outcome (done, retry, busy, skipped, paused, rate_limited).',
  labelNames: ['platform', 'operation', 'outcome'],
  registers,
});
export const platformCalls = new Counter({
  name: 'ledgerport_platform_calls_total',
  help: 'HTTP calls to platforms (each attempt), by platform host and status class (2xx, 4xx, 5xx, error).',
  labelNames: ['host', 'status'],
  registers,
});
export const platformCallDuration = new Histogram({
  name: 'ledgerport_platform_call_duration_seconds',
  help: 'Duration of HTTP calls to platforms (each attempt), by platform host.',
  labelNames: ['host'],
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});
export const platformLimitedCalls = new Counter({
  name: 'ledgerport_platform_limited_calls_total',
  help: "Platform call attempts that took capacity from their connection's shared limits, by platform and outcome (immediate, waited, budget_spent).",
  labelNames: ['platform', 'outcome'],
  registers,
});
export const platformLimitWait = new Histogram({
  name: 'ledgerport_platform_limit_wait_seconds',
  help: "How long platform call attempts waited for their connection's shared rate or cost bucket, by platform.",
  labelNames: ['platform'],
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
  registers,
});
export const platformBudgetPauses = new Counter({
  name: 'ledgerport_platform_budget_pauses_total',
  help: "Sync runs and writes put off because their connection's daily budget of platform calls was spent, by platform.",
  labelNames: ['platform'],
  registers,
});
export const mappingViolations = new Counter({
  name: 'ledgerport_mapping_violations_total',
  help: 'Mapped objects that did not fit their unified schema and were stored with what is valid, by platform and object type.',
  labelNames: ['platform', 'object_type'],
  registers,
});
export const tokenRefreshes = new Counter({
  name: 'ledgerport_token_refreshes_total',
  help: 'OAuth token refreshes, by platform and outcome (refreshed, failed).',
  labelNames: ['platform', 'outcome'],
  registers,
});
export const logLinesDropped = new Counter({
  name: 'ledgerport_log_lines_dropped_total',
  help: 'Log lines this process could not write to stdout (no reader, or a reader that stopped reading) and dropped.',
  registers,
});

export const httpRequestDuration = new Histogram({
  name: 'ledgerport_http_request_duration_seconds',
  help: 'API requests answered by this process, by route template (unmatched for no route), method and status.',
  labelNames: ['route', 'method', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

/** Why a request was answered 429 (docs/operations.md, "Metrics reference"). */
export type ThrottleReason =
  | 'rate_limit'
  | 'auth_throttle'
  | 'webhook_throttle'
  | 'organization_concurrency'
  | 'organization_large_answers'
  | 'organization_costly_reads'
  | 'connection_cap';

export const throttledRequests = new Counter({
  name: 'ledgerport_http_throttled_total',
  help: 'Requests answered 429 by this process, by reason (rate_limit, auth_throttle, webhook_throttle, organization_concurrency, organization_large_answers, organization_costly_reads, connection_cap).',
  labelNames: ['reason'],
  registers,
});

/** Counts one 429 answer; every place that answers one calls it with its reason. */
export function countThrottled(reason: ThrottleReason): void {
  throttledRequests.inc({ reason });
}

export const webhookDeliveryLag = new Histogram({
  name: 'ledgerport_webhook_delivery_lag_seconds',
  help: "From the event's creation to its delivery's successful attempt (retries included).",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 900, 3600],
  registers,
});
export const syncStartDelay = new Histogram({
  name: 'ledgerport_sync_start_delay_seconds',
  help: "From a sync run's creation (queued) to its first start in a worker, by platform and kind.",
  labelNames: ['platform', 'kind'],
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
  registers,
});

/** What a platform call attempt came to, by its status; `network_error` is no answer at all (refused, DNS, timeout). */
export type PlatformCallOutcome = 'ok' | '4xx' | '429' | '5xx' | 'network_error';

export const platformCallOutcomes = new Counter({
  name: 'ledgerport_platform_call_outcomes_total',
  help: 'HTTP calls to platforms (each attempt), by platform and outcome (ok, 4xx, 429, 5xx, network_error).',
  labelNames: ['platform', 'outcome'],
  registers,
});

export const requestLogRowsDropped = new Counter({
  name: 'ledgerport_request_log_rows_dropped_total',
  help: 'Rows of the API request log this process could not write (a batch the database refused, or its buffer full while writes were slow) and dropped.',
  registers,
});

/** The --role this process was started with (src/main.ts), `all` when none. */
export function processRole(argv: readonly string[] = process.argv): string {
  for (const [i, arg] of argv.entries()) {
    if (arg.startsWith('--role=')) return arg.slice('--role='.length);
    if (arg === '--role' && argv[i + 1] !== undefined) return argv[i + 1] ?? 'all';
  }
  return 'all';
}

new Gauge({
  name: 'ledgerport_process_info',
  help: 'The process answering this scrape; role is all, api or worker.',
  labelNames: ['role'],
  registers,
}).set({ role: processRole() }, 1);
