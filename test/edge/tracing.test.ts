/**
 * Issue 33, item 3: OpenTelemetry traces. With the SDK started (an in-memory exporter in place of OTLP), one write
 * leaves one trace from the HTTP request through its pg-boss job to each platform call, continuing the caller's
 * traceparent, and the log lines written inside it carry its trace id. A webhook delivery attempt has its span, in
 * the trace of the change that emitted its event (events.trace_context); with traces off no context is stored.
 * With traces off, no part of the SDK is loaded. Against the QuickBooks Online stand-in, so platform calls are real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { startTestApp, type TestApp } from '../support/app.ts';
import { capturedLog, eventually } from '../support/captured-log.ts';
import { expectSynced, oauthConnection } from '../support/oauth-connection.ts';
import { sender } from '../support/writes.ts';
import { setEnv } from '../support/env.ts';
import { startQuickBooksStandIn, type QuickBooksStandIn } from '../standins/quickbooks/index.ts';
import { serviceId } from '../../src/store/ids.ts';
import { startWriteWorkers } from '../../src/writes/worker.ts';
import { startSyncWorkers } from '../../src/sync/worker.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import { startTracing, TRACER_NAME, type Tracing } from '../../src/metrics/tracing-sdk.ts';
import { useTracer } from '../../src/metrics/tracing.ts';
import { emitEvent } from '../../src/events/emit.ts';
import { context, trace } from '@opentelemetry/api';
import { tracingRequested } from '../../src/metrics/tracing-request.ts';

const APP = { clientId: 'ABqbo-trace-client', clientSecret: 'qbo-trace-secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' };
const REALM = '9130350000000077';
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

const captured = capturedLog({ level: 'debug', traceIds: true });
const { lines } = captured;

const exporter = new InMemorySpanExporter();
const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

let t: TestApp;
let qbo: QuickBooksStandIn;
let tracing: Tracing;
let dispatcher: WebhookDispatcher;
let restoreEnv: () => void = () => undefined;
/** The connection the first test links and syncs. */
let accessToken = '';

beforeAll(async () => {
  // Before the app: its build registers @fastify/otel only when traces are on.
  tracing = await startTracing({ role: 'test', exporter });
  qbo = await startQuickBooksStandIn({ generatedBills: 0 });
  qbo.registerClient(APP);
  restoreEnv = setEnv({
    QUICKBOOKS_API_URL: qbo.url,
    QUICKBOOKS_TOKEN_URL: `${qbo.url}/oauth2/v1/tokens/bearer`,
    QUICKBOOKS_AUTHORIZE_URL: `${qbo.url}/connect/oauth2`,
  });
  const { log } = captured;
  t = await startTestApp({ log, config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  await startWriteWorkers(t.boss, t.services, { concurrency: 2 });
  await startSyncWorkers(t.boss, t.services, { concurrency: 1 });
  await t.db.pool.query(`INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, 'sandbox', 'https://hooks.example.com/in')`, [
    t.org.organization.id,
  ]);
  dispatcher = startWebhookDispatcher(t.services, {
    pollMs: 50,
    send: () => Promise.resolve({ kind: 'success', statusCode: 204, error: null, excerpt: null, durationMs: 3 }),
  });
}, 120_000);

afterAll(async () => {
  await dispatcher.stop();
  await t.close();
  await qbo.close();
  await tracing.shutdown();
  restoreEnv();
});

describe('traces', () => {
  it('follow one write from the HTTP request through its job to each platform call, in the caller’s trace', async () => {
    qbo.addCompany({ realmId: REALM, name: 'Trace Company' });
    const tokens = qbo.issueTokens({ clientId: APP.clientId, realmId: REALM, expiresInSeconds: 3600 });
    const { connection, token } = await oauthConnection(t, {
      platform: 'QUICKBOOKS',
      app: APP,
      tokens,
      identity: { storeUniqueId: REALM, storeName: 'Trace Company' },
    });
    await expectSynced(t, connection.id, 'initial');
    accessToken = token;
    exporter.reset();

    const ref = (type: 'vendor' | 'account', platformId: string): string => serviceId(connection.id, type, platformId);
    const bill = {
      vendor_id: ref('vendor', '46'),
      issue_date: new Date().toISOString().slice(0, 10),
      due_date: '2030-01-31',
      memo: 'Traced bill',
      line_items: [{ account_id: ref('account', '64'), total_amount: 42, description: 'Boards' }],
    };
    const response = await sender(t, token)('POST', `/accounting/bills`, { bill }, { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` });
    expect(response.statusCode, response.body).toBe(200);

    const [job] = await eventually(() => spans().filter((s) => s.name === 'write job'), 15_000);
    const [request] = spans().filter((s) => s.name === 'request' && s.attributes['http.route'] === '/versioned/accounting/bills');
    expect(request).toBeDefined();
    expect(job).toBeDefined();
    if (request === undefined || job === undefined) return;
    // The caller's trace goes on: the request span is the child of the caller's span.
    expect(request.spanContext().traceId).toBe(CALLER_TRACE);
    expect(parentOf(request)).toBe(CALLER_SPAN);
    // The URL on the span has no access token.
    expect(String(request.attributes['url.path'])).not.toContain(token);

    // The job's span descends from the request's (through its handler span), in the same trace.
    expect(job.spanContext().traceId).toBe(CALLER_TRACE);
    const byId = new Map(spans().map((s) => [s.spanContext().spanId, s]));
    const ancestors: string[] = [];
    for (let at = byId.get(parentOf(job) ?? ''); at !== undefined; at = byId.get(parentOf(at) ?? '')) ancestors.push(at.spanContext().spanId);
    expect(ancestors).toContain(request.spanContext().spanId);

    // Each platform call of the job is a child of the job's span: the POST of the bill among them.
    const calls = spans().filter((s) => s.name === 'platform call' && parentOf(s) === job.spanContext().spanId);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.map((c) => [c.attributes['http.request.method'], c.attributes['url.path']])).toContainEqual(['POST', `/v3/company/${REALM}/bill`]);
    for (const call of calls) {
      expect(call.spanContext().traceId).toBe(CALLER_TRACE);
      expect(call.attributes['ledgerport.platform']).toBe('QUICKBOOKS');
    }

    // The job's log lines carry the trace id.
    const started = lines().filter((l) => l.msg === 'write started' && l.trace_id === CALLER_TRACE);
    expect(started).toHaveLength(1);
  });

  it('follow a sync the API starts through its job to its platform calls', async () => {
    expect(accessToken).not.toBe('');
    const response = await sender(t, accessToken)('POST', '/connections/incremental_sync', {});
    expect(response.statusCode, response.body).toBe(200);
    const request = spans().find((s) => s.name === 'request' && s.attributes['http.route'] === '/versioned/connections/incremental_sync');
    expect(request).toBeDefined();
    const [job] = await eventually(
      () => spans().filter((s) => s.name === 'sync job' && s.spanContext().traceId === request?.spanContext().traceId),
      15_000,
    );
    expect(job).toBeDefined();
    const calls = spans().filter((s) => s.name === 'platform call' && parentOf(s) === job?.spanContext().spanId);
    expect(calls.length).toBeGreaterThan(0);
  });

  it('give each webhook delivery attempt a span, in the trace of the change that emitted its event', async () => {
    const attempts = await eventually(() => spans().filter((s) => s.name === 'webhook delivery attempt'), 15_000);
    expect(attempts[0]?.attributes).toMatchObject({ 'ledgerport.organization_id': t.org.organization.id, 'server.address': 'hooks.example.com' });
    // The bill the first test wrote is announced by an event its write job emitted: that event's attempt goes on in
    // the caller's trace, as the child of the span that emitted it, and is no new trace of its own.
    const [inCallerTrace] = await eventually(
      () => spans().filter((s) => s.name === 'webhook delivery attempt' && s.spanContext().traceId === CALLER_TRACE),
      15_000,
    );
    expect(inCallerTrace).toBeDefined();
    const byId = new Map(spans().map((s) => [s.spanContext().spanId, s]));
    const emitter = byId.get(inCallerTrace === undefined ? '' : (parentOf(inCallerTrace) ?? ''));
    expect(emitter?.name).toBe('write job');
    expect(emitter?.spanContext().traceId).toBe(CALLER_TRACE);
    // Every attempt of an event stored with a trace context is in that trace (the test's own syncs run outside any span).
    const all = spans().filter((s) => s.name === 'webhook delivery attempt');
    const stored = await t.db.pool.query<{ id: string; traceparent: string | null }>(
      `SELECT id, trace_context->>'traceparent' AS traceparent FROM events WHERE id = ANY($1::uuid[])`,
      [all.map((a) => String(a.attributes['ledgerport.event_id']))],
    );
    const traced = stored.rows.filter((r) => r.traceparent !== null);
    expect(traced.length).toBeGreaterThan(0);
    for (const row of traced) {
      const attempt = all.find((a) => a.attributes['ledgerport.event_id'] === row.id);
      expect(attempt?.spanContext().traceId).toBe(row.traceparent?.split('-')[1]);
    }
  });
});

describe('with traces off', () => {
  it('store no trace context with an event, even inside a span', async () => {
    useTracer(null);
    try {
      const tracer = trace.getTracer('test');
      const span = tracer.startSpan('outside ledgerport');
      const id = await context.with(trace.setSpan(context.active(), span), () =>
        emitEvent(t.db.pool, t.services.cipher, {
          tenant: { organizationId: t.org.organization.id, environment: 'sandbox' },
          connectionId: null,
          type: 'JOB',
          code: 'TRACE_OFF_TEST',
          payload: {},
        }),
      );
      span.end();
      const row = await t.db.pool.query<{ trace_context: unknown }>('SELECT trace_context FROM events WHERE id = $1', [id]);
      expect(row.rows[0]?.trace_context).toBeNull();
    } finally {
      useTracer(trace.getTracer(TRACER_NAME));
    }
  });

  it('are off unless an OTLP endpoint is configured', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('load no part of the SDK: the service modules pull in the OpenTelemetry API only', () => {
    // A fresh process loads what the service loads (app, workers, dispatcher) and lists every module it resolved.
    const script = `
      import { registerHooks } from 'node:module';
      const seen = [];
      registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
      await import('./src/app.ts');
      await import('./src/jobs/queues.ts');
      await import('./src/webhooks/dispatcher.ts');
      await import('./src/runtime.ts');
      process.stdout.write(JSON.stringify(seen.filter((u) => u.includes('/node_modules/@opentelemetry/') || u.includes('/node_modules/@fastify/otel/'))));
    `;
    const loaded = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' }),
    ) as string[];
    const packages = [...new Set(loaded.map((u) => /node_modules\/(@[^/]+\/[^/]+)/.exec(u)?.[1]))];
    expect(packages).toEqual(['@opentelemetry/api']);
  });
});
