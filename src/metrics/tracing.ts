/**
 * OpenTelemetry traces, the facade the rest of the code calls: spans for the HTTP request (by @fastify/otel, in
 * src/app.ts), the jobs it sends (their context travels in the pg-boss job's data), each platform call attempt and
 * each webhook delivery attempt. Off by default: until src/metrics/tracing-sdk.ts (loaded only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set) hands a tracer here, every function below returns at once and only the
 * OpenTelemetry API, without any SDK, is loaded.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Tracer } from '@opentelemetry/api';

let tracer: Tracer | null = null;

/** Called by the SDK's start-up (tracing-sdk.ts); null turns tracing off again (tests). */
export function useTracer(next: Tracer | null): void {
  tracer = next;
}

export function tracingEnabled(): boolean {
  return tracer !== null;
}

/** The W3C trace context fields a job's data carries: who sent it. */
const CARRIER_FIELDS = ['traceparent', 'tracestate'] as const;

/** `data` with the current trace context added (traceparent, tracestate), when tracing is on and a span is active. */
export function withTraceContext(data: Record<string, unknown>): Record<string, unknown> {
  if (tracer === null) return data;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent === undefined ? data : { ...data, ...carrier };
}

/** The W3C trace context a stored row keeps (events.trace_context): the fields of `traceparent` and `tracestate`. */
export type TraceCarrier = Partial<Record<(typeof CARRIER_FIELDS)[number], string>>;

/**
 * The active span's trace context, for a row that outlives it (an event, whose webhook delivery attempts continue the
 * trace later in another process); null when tracing is off or no span is active, so nothing is written then.
 */
export function activeTraceContext(): TraceCarrier | null {
  if (tracer === null) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (carrier.traceparent === undefined) return null;
  return carrier.tracestate === undefined
    ? { traceparent: carrier.traceparent }
    : { traceparent: carrier.traceparent, tracestate: carrier.tracestate };
}

function contextOf(data: object): Context {
  const carrier: Record<string, string> = {};
  for (const field of CARRIER_FIELDS) {
    const value: unknown = field in data ? (data as Record<string, unknown>)[field] : undefined;
    if (typeof value === 'string') carrier[field] = value;
  }
  return propagation.extract(context.active(), carrier);
}

/**
 * Runs `work` in a span; `parent` is a job's data or an event's stored trace context (where it began), or the active
 * context when absent.
 * The span ends when `work` settles, with an error status when it throws.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: object },
  work: () => Promise<T>,
): Promise<T> {
  if (tracer === null) return work();
  const parent = options.parent === undefined ? context.active() : contextOf(options.parent);
  const span = tracer.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** A span for something that already happened (a platform call attempt, observed once it ended), child of the active one. */
export function recordSpan(
  name: string,
  options: { kind: SpanKind; attributes: Attributes; startMs: number; durationMs: number; error: string | null },
): void {
  if (tracer === null) return;
  const span = tracer.startSpan(name, { kind: options.kind, attributes: options.attributes, startTime: options.startMs }, context.active());
  if (options.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: options.error });
  span.end(options.startMs + options.durationMs);
}

export { SpanKind };
