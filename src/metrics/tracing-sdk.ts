/**
 * The OpenTelemetry SDK, loaded (by dynamic import, from src/server.ts and tests) only when traces are wanted: with
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) set, spans go to that collector over OTLP/HTTP
 * in batches; the exporter reads the other standard variables itself (OTEL_EXPORTER_OTLP_HEADERS, …). The service
 * is named by OTEL_SERVICE_NAME, default `ledgerport`. OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none keep
 * traces off whatever the endpoint says.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { FastifyPluginCallback } from 'fastify';
import { useTracer } from './tracing.ts';

export const TRACER_NAME = 'ledgerport';

export interface Tracing {
  /** Sends what is buffered and stops; spans after it are dropped. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** `api`, `worker` or `all`: a resource attribute, so a trace shows which process did what. */
  role: string;
  /** Where spans go; default OTLP/HTTP to the configured endpoint. Tests pass an in-memory exporter (spans exported as they end). */
  exporter?: SpanExporter;
  env?: NodeJS.ProcessEnv;
}

export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const env = options.env ?? process.env;
  const exporter = options.exporter ?? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'ledgerport', 'ledgerport.role': options.role }),
    spanProcessors: [options.exporter === undefined ? new BatchSpanProcessor({ exporter }) : new SimpleSpanProcessor({ exporter })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  useTracer(provider.getTracer(TRACER_NAME));
  return {
    async shutdown() {
      useTracer(null);
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/**
 * @fastify/otel's plugin, for src/app.ts to register before any route: a span per request (named `request`, its route
 * template in http.route) and one for its handler (none for health probes and scrapes), in the trace the caller's traceparent header names. The URL
 * path on the span is redacted like the log's (no access token or link token in a query string or path).
 */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export async function fastifyTracingPlugin(redactUrl: (url: string) => string): Promise<FastifyPluginCallback> {
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  const instrumentation = new FastifyOtelInstrumentation({
    // A span for the request and one for its handler: a span per hook would be a dozen per request, each exported
    // (bench/tracing-cost.ts measured about 10 KB of spans per read with them), with little an operator reads in them.
    instrumentHooks: false,
    // Probes and scrapes every few seconds would bury the traces worth reading.
    ignorePaths: ({ url }) => UNTRACED_PATHS.has(url.split('?')[0] ?? url),
    requestHook: (span, request) => {
      span.setAttribute('url.path', redactUrl(request.url));
    },
  });
  return instrumentation.plugin();
}
