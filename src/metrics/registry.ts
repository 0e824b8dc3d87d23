/**
 * A small Prometheus registry: counters and histograms with labels, rendered in
 * the text exposition format. Per process, as Prometheus expects: scrape every
 * API and worker process (each /metrics says which role it is).
 */
type Labels = Readonly<Record<string, string>>;

function labelText(labels: Labels): string {
  const entries = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`).join(',')}}`;
}

interface Metric { render(): string[] }

export class Counter implements Metric {
  readonly #values = new Map<string, { labels: Labels; value: number }>();
  readonly name: string;
  readonly help: string;

  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }

  inc(labels: Labels = {}, by = 1): void {
    const key = labelText(labels);
    const entry = this.#values.get(key) ?? { labels, value: 0 };
    entry.value += by;
    this.#values.set(key, entry);
  }

  value(labels: Labels = {}): number {
    return this.#values.get(labelText(labels))?.value ?? 0;
  }

  render(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`,
      ...[...this.#values.values()].map((e) => `${this.name}${labelText(e.labels)} ${e.value}`)];
  }
}

export class Histogram implements Metric {
  readonly #series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  readonly name: string;
  readonly help: string;
  readonly buckets: readonly number[];

  constructor(name: string, help: string, buckets: readonly number[]) {
    this.name = name;
    this.help = help;
    this.buckets = buckets;
  }

  observe(value: number, labels: Labels = {}): void {
    const key = labelText(labels);
    const series = this.#series.get(key) ?? { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
    this.buckets.forEach((bound, i) => { if (value <= bound) series.counts[i] = (series.counts[i] ?? 0) + 1; });
    series.sum += value;
    series.count += 1;
    this.#series.set(key, series);
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.#series.values()) {
      this.buckets.forEach((bound, i) => { lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: String(bound) })} ${s.counts[i] ?? 0}`); });
      lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`, `${this.name}_sum${labelText(s.labels)} ${s.sum}`, `${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return lines;
  }
}

export class Registry {
  readonly #metrics: Metric[] = [];

  register<M extends Metric>(metric: M): M {
    this.#metrics.push(metric);
    return metric;
  }

  render(): string {
    return `${this.#metrics.flatMap((m) => m.render()).join('\n')}\n`;
  }
}

/** The process's registry. */
export const metrics = new Registry();

export const webhookDeliveries = metrics.register(new Counter('ledgerport_webhook_deliveries_total', 'Webhook deliveries finished, by outcome (delivered, failed).'));
export const webhookAttempts = metrics.register(new Counter('ledgerport_webhook_attempts_total', 'Webhook delivery attempts, by result (success, http_error, timeout, network, refused).'));
export const webhookLatency = metrics.register(new Histogram('ledgerport_webhook_attempt_duration_seconds', 'Duration of webhook delivery attempts.', [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]));
export const webhookDelay = metrics.register(new Histogram('ledgerport_webhook_enqueue_to_attempt_seconds', 'From the event\'s creation to the start of its first delivery attempt.', [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60]));
export const httpConnectionsShed = metrics.register(new Counter('ledgerport_http_connections_shed_total', 'Client sockets closed by the connection caps, by reason (client_limit, total_limit, evicted).'));
