/**
 * The pino mixin of a process with traces on (src/metrics/tracing-sdk.ts): every line written inside a span carries
 * its trace_id and span_id, so a trace leads to its log lines and back. Without traces the mixin is not installed.
 */
import { context, isSpanContextValid, trace } from '@opentelemetry/api';

export function traceFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (span === undefined) return {};
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}
