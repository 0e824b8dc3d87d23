/**
 * Workers speak (issue 21, item 3): a sync run, a token refresh, a write and a
 * webhook delivery each leave structured lines carrying their ids, and one
 * write can be followed by its request id from the API request through the
 * job to the platform call. Against the QuickBooks Online stand-in, so the
 * platform calls are real HTTP; the service's log is captured at debug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { capturedLog, eventually, type LogLine } from '../support/captured-log.ts';
import { expectSynced, oauthConnection, storedTokens } from '../support/oauth-connection.ts';
import { jobIdOf, sender } from '../support/writes.ts';
import { setEnv } from '../support/env.ts';
import { startQuickBooksStandIn, type QuickBooksStandIn } from '../standins/quickbooks/index.ts';
import { serviceId } from '../../src/store/ids.ts';
import { startWriteWorkers } from '../../src/writes/worker.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/webhooks/dispatcher.ts';

const APP = { clientId: 'ABqbo-logs-client', clientSecret: 'qbo-logs-secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' };
const REALM = '9130350000000042';
const REQUEST_ID = 'req-worker-logs-0001';

const captured = capturedLog({ level: 'debug' });
const { lines, withMessage } = captured;

let t: TestApp;
let qbo: QuickBooksStandIn;
let dispatcher: WebhookDispatcher;
let restoreEnv: () => void = () => undefined;
const secrets: string[] = [];

beforeAll(async () => {
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
  await t.db.pool.query(
    `INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, 'sandbox', 'https://hooks.example.com/in?key=receiver-secret')`,
    [t.org.organization.id],
  );
  dispatcher = startWebhookDispatcher(t.services, {
    pollMs: 50,
    send: () => Promise.resolve({ kind: 'success', statusCode: 204, error: null, excerpt: null, durationMs: 3 }),
  });
}, 120_000);

afterAll(async () => {
  await dispatcher.stop();
  await t.close();
  await qbo.close();
  restoreEnv();
});

describe('worker log lines', () => {
  let connectionId = '';
  let accessToken = '';

  it("a sync run logs its start and end, each platform call, and the token refresh it needed, with the run's ids", async () => {
    qbo.addCompany({ realmId: REALM, name: 'Logs Company' });
    // Expires within the refresh margin: the run refreshes it before its first call.
    const tokens = qbo.issueTokens({ clientId: APP.clientId, realmId: REALM, expiresInSeconds: 30 });
    secrets.push(tokens.accessToken, tokens.refreshToken);
    const { connection, token } = await oauthConnection(t, {
      platform: 'QUICKBOOKS',
      app: APP,
      tokens,
      identity: { storeUniqueId: REALM, storeName: 'Logs Company' },
    });
    connectionId = connection.id;
    accessToken = token;
    secrets.push(token);
    await expectSynced(t, connection.id, 'initial');

    const ids = { organization_id: t.org.organization.id, connection_id: connection.id, platform: 'QUICKBOOKS' };
    const [started] = withMessage('sync run started');
    expect(started).toMatchObject({ ...ids, level: 30, sync: { kind: 'initial', trigger: 'api', attempt: 1 } });
    const runId = started?.sync_run_id;
    expect(typeof runId).toBe('string');
    const single = (msg: string): LogLine => {
      const found = withMessage(msg);
      expect(found, msg).toHaveLength(1);
      return found[0] ?? { level: 0, msg };
    };
    expect(single('sync run ended')).toMatchObject({ ...ids, sync_run_id: runId, sync: { outcome: 'completed' } });
    expect(single('token refresh started')).toMatchObject({ ...ids, sync_run_id: runId, token_refresh: { reason: 'expiring' } });
    expect(single('token refreshed')).toMatchObject({ ...ids, sync_run_id: runId });
    const calls = withMessage('platform call').filter((l) => l.sync_run_id === runId);
    // The refresh, then the reads of every object.
    expect(calls.length).toBeGreaterThan(5);
    for (const call of calls) {
      expect(call).toMatchObject({ ...ids, level: 20, platform_call: { status: 200 } });
      const { method, duration_ms: duration } = call.platform_call as { method: unknown; duration_ms: unknown };
      expect(['GET', 'POST']).toContain(method);
      expect(typeof duration).toBe('number');
    }
    expect(calls.some((c) => (c.platform_call as { path: string }).path === '/oauth2/v1/tokens/bearer')).toBe(true);
    expect(calls.some((c) => (c.platform_call as { path: string }).path === `/v3/company/${REALM}/query`)).toBe(true);
  });

  it('one write carries the request id from the API request through the job to the platform call', async () => {
    const send = sender(t, accessToken);
    const ref = (type: 'vendor' | 'account', platformId: string): string => serviceId(connectionId, type, platformId);
    const bill = {
      vendor_id: ref('vendor', '46'),
      issue_date: new Date().toISOString().slice(0, 10),
      due_date: '2030-01-31',
      memo: 'Logged bill',
      line_items: [{ account_id: ref('account', '64'), total_amount: 42, description: 'Boards' }],
    };
    const response = await send('POST', '/accounting/bills', { bill }, { 'x-request-id': REQUEST_ID });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-request-id']).toBe(REQUEST_ID);
    const jobId = jobIdOf(response);

    await eventually(() => withMessage('write finished').filter((l) => l.request_id === REQUEST_ID));
    const traced = lines().filter((l) => l.request_id === REQUEST_ID);
    const messages = traced.map((l) => l.msg);
    expect(messages).toEqual(expect.arrayContaining(['incoming request', 'write started', 'platform call', 'write finished', 'request completed']));
    // Everything from the job on names the job, the connection and the organisation.
    const ids = { organization_id: t.org.organization.id, connection_id: connectionId, job_id: jobId };
    for (const line of traced.filter((l) => l.msg !== 'incoming request' && l.msg !== 'request completed')) expect(line).toMatchObject(ids);
    expect(traced.find((l) => l.msg === 'write started')).toMatchObject({ write: { operation: 'create', object_type: 'bill', attempt: 1 } });
    expect(traced.find((l) => l.msg === 'write finished')).toMatchObject({ write: { outcome: 'done', status: 'completed', status_code: 200 } });
    const posts = traced.filter((l) => l.msg === 'platform call').map((l) => l.platform_call as { method: string; path: string; status: number });
    expect(posts).toContainEqual(expect.objectContaining({ method: 'POST', path: `/v3/company/${REALM}/bill`, status: 200 }));
  });

  it("each webhook delivery attempt leaves a line with the delivery, event and organisation, and the receiver's host only", async () => {
    const delivered = await eventually(() =>
      withMessage('webhook delivery attempt').filter((l) => (l.webhook as { code?: string }).code === 'JOB_COMPLETED'),
    );
    expect(delivered[0]).toMatchObject({
      organization_id: t.org.organization.id,
      connection_id: connectionId,
      webhook: { attempt: 1, result: 'success', status_code: 204, outcome: 'delivered', host: 'hooks.example.com' },
    });
    expect(typeof delivered[0]?.delivery_id).toBe('string');
  });

  it("no line holds a token, a secret or the receiver's query", async () => {
    // The refreshed tokens too: what the connection holds now.
    const current = await storedTokens(t, connectionId);
    expect(current?.accessToken).not.toBe(secrets[0]);
    const all = captured.text();
    expect(all.length).toBeGreaterThan(0);
    for (const secret of [...secrets, current?.accessToken ?? '', current?.refreshToken ?? '', APP.clientSecret, 'receiver-secret']) {
      expect(secret).not.toBe('');
      expect(all).not.toContain(secret);
    }
  });
});
