/**
 * A platform's own webhook through the real service, from Xero's stand-in to our receiver: a signed Xero notification
 * of an edited bill reaches the stored copy through a targeted incremental sync run by a sync worker, and our
 * BILL_UPDATED webhook is delivered. Refusals: no or a wrong signature, an app without a key, another organisation's
 * address, a platform that sends none, a body that is not JSON or not Xero's shape; nothing of those is recorded.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXeroStandIn, useStandIn, type XeroStandIn } from '../../../test/standins/xero/server.ts';
import { xeroWebhook } from '../../../test/standins/xero/webhooks.ts';
import { errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { expectSynced, oauthConnection, registerOAuthApp } from '../../../test/support/oauth-connection.ts';
import { listenAsSandboxAddress, type WebhookReceiver } from '../../../test/support/webhook-receiver.ts';
import { createLogger } from '../../log/logger.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import type { Connector } from '../../platforms/connector.ts';
import { getConnector, registerConnector } from '../../platforms/registry.ts';
import { xeroConnector } from '../../platforms/xero/index.ts';
import { tryLockConnectionSync, unlockConnectionSync } from '../../sql/sync-locks.ts';
import { requestSync } from '../../sync/requests.ts';
import { startSyncWorkers } from '../../sync/worker.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../webhooks/dispatcher.ts';

type Json = Record<string, unknown>;

/**
 * Holds a connection's sync at the first read that follows its read of bills, until released: an initial sync that has
 * read bills and has more to read.
 */
interface HeldAfterBills {
  connectionId: string;
  billsRead: boolean;
  reached: () => void;
  released: Promise<void>;
}
let held: HeldAfterBills | null = null;

async function holdAfterBills<T>(connectionId: string, type: string, read: () => Promise<T>): Promise<T> {
  const hold = held;
  if (hold !== null && hold.connectionId === connectionId) {
    if (type === 'bill') hold.billsRead = true;
    else if (hold.billsRead) {
      hold.reached();
      await hold.released;
    }
  }
  return read();
}

// Xero without its 60-a-minute spacing, as in xero.integration.test.ts; its webhooks are Xero's. Its reads can be held.
const PLATFORM = 'XERO_HOOKS';
const xero: Connector = {
  ...xeroConnector,
  id: PLATFORM,
  name: 'Xero (webhooks)',
  limits: { requestsPerMinute: null, concurrentRequests: 5 },
  objects: Object.fromEntries(
    Object.entries(xeroConnector.objects).map(([type, object]) => [
      type,
      {
        ...object,
        handler: { ...object.handler, read: (ctx, request) => holdAfterBills(ctx.connectionId, type, () => object.handler.read(ctx, request)) },
      },
    ]),
  ),
};
const WEBHOOK_KEY = 'xero-webhook-key-0123456789';
const APP = { clientId: 'ledgerport-xero-hooks', clientSecret: 'xero-hooks-secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' };

let t: TestApp;
let standin: XeroStandIn;
let restore: () => void;
let receiver: WebhookReceiver;
let dispatcher: WebhookDispatcher;
let connection: ConnectionRecord;
const written: string[] = [];
/** The service's log lines with this message. */
const logged = (msg: string): Json[] =>
  written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Json)
    .filter((line) => line.msg === msg);
/** The summary of the last notification taken, as logged (Xero's answers have no body). */
const summary = (): Json | undefined => {
  const line = written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((text) => text.includes('"msg":"platform webhook received'))
    .map((text) => JSON.parse(text) as Json)
    .at(-1);
  return line === undefined ? undefined : { changes: line.changes, sync_runs: line.sync_runs, revoked: line.revoked, duplicate: line.duplicate };
};

beforeAll(async () => {
  standin = await startXeroStandIn();
  restore = useStandIn(standin);
  standin.registerClient(APP);
  if (getConnector(PLATFORM) === undefined) registerConnector(xero);
  t = await startTestApp({
    config: { rateLimit: { limit: 100_000, windowSeconds: 10 }, webhookAllowPrivate: true },
    log: createLogger({
      level: 'info',
      role: 'test',
      destination: {
        write: (chunk: string) => {
          written.push(chunk);
        },
      },
    }),
  });
  const tenant = standin.tenants[0];
  ({ connection } = await oauthConnection(t, {
    platform: PLATFORM,
    app: { ...APP, webhookKey: WEBHOOK_KEY },
    tokens: standin.issueTokens(APP.clientId),
    identity: { storeUniqueId: tenant?.id ?? '', storeName: tenant?.name ?? null },
  }));
  await expectSynced(t, connection.id, 'initial');
  receiver = await listenAsSandboxAddress(t);
  await startSyncWorkers(t.boss, t.services, { concurrency: 1 });
  dispatcher = startWebhookDispatcher(t.services, { pollMs: 50 });
}, 120_000);
afterAll(async () => {
  await dispatcher.stop();
  await receiver.close();
  await t.close();
  await standin.close();
  restore();
});

const sign = (body: string, key = WEBHOOK_KEY) => createHmac('sha256', key).update(body).digest('base64');
const tenantId = () => standin.tenants[0]?.id ?? '';
const xeroEvent = (resourceId: string, over: Json = {}) => ({
  resourceUrl: `https://api.xero.com/api.xro/2.0/Invoices/${resourceId}`,
  resourceId,
  eventDateUtc: '2026-11-26T02:00:00.000',
  eventType: 'UPDATE',
  eventCategory: 'INVOICE',
  tenantId: tenantId(),
  tenantType: 'ORGANISATION',
  ...over,
});
const notification = (events: unknown[]) =>
  JSON.stringify({ events, firstEventSequence: 1, lastEventSequence: events.length, entropy: 'QWERTYUIOPASDFGH' });

function post(body: string, signature: string | null, path = `/platform-webhooks/${PLATFORM}/${t.org.organization.id}/sandbox`) {
  return t.app.inject({
    method: 'POST',
    url: path,
    payload: body,
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-xero-signature': signature }) },
  });
}

const receipts = async () => Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM platform_webhook_receipts')).rows[0]?.n);

async function until<T>(find: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('not in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('POST /platform-webhooks/:platform/:organization_id/:environment', () => {
  it("answers Xero's intent-to-receive check: 200 for a good signature, 401 for a bad one, both without a body as Xero's documentation says", async () => {
    const empty = notification([]);
    const good = await post(empty, sign(empty));
    expect([good.statusCode, good.body, good.headers['content-type']]).toEqual([200, '', undefined]);
    // The summary the answer no longer carries is in the log.
    expect(summary()).toEqual({ changes: 0, sync_runs: 0, revoked: 0, duplicate: false });
    const bad = await post(empty, sign(empty, 'another key'));
    expect([bad.statusCode, bad.body]).toEqual([401, '']);
    expect(logged('platform webhook refused').at(-1)).toMatchObject({ reason: 'bad_signature' });
  });

  it('takes a notification with a NUL (\\u0000) in it: recorded with U+FFFD in its place, never a 500', async () => {
    const before = await receipts();
    // The NUL where a notification has most text (the entropy) and in a name; and a tenant id with one names no connection.
    const raw = JSON.stringify({
      events: [xeroEvent(randomUUID()), xeroEvent(randomUUID(), { tenantId: `${tenantId()}\u0000` })],
      firstEventSequence: 1,
      lastEventSequence: 2,
      entropy: 'QWERTY\u0000UIOP',
      'odd\u0000name': true,
    });
    expect(raw).toContain('\\u0000');
    const answer = await post(raw, sign(raw));
    expect([answer.statusCode, answer.body]).toEqual([200, '']);
    expect(summary()).toEqual({ changes: 4, sync_runs: 1, revoked: 0, duplicate: false });
    expect(await receipts()).toBe(before + 1);
    const kept = (await t.db.pool.query<{ body: Json }>('SELECT body FROM platform_webhook_receipts ORDER BY received_at DESC LIMIT 1')).rows[0];
    expect(kept?.body).toMatchObject({ entropy: 'QWERTY\uFFFDUIOP', 'odd\uFFFDname': true });
    expect((kept?.body.events as Json[] | undefined)?.[1]?.tenantId).toBe(`${tenantId()}\uFFFD`);
    // The same bytes again are the same notification (the receipt keys on the raw body's hash).
    await post(raw, sign(raw));
    expect(summary()).toMatchObject({ duplicate: true });
  });

  it("takes an edited bill from Xero's webhook to the stored copy and to our BILL_UPDATED webhook", async () => {
    const bill = standin
      .books()
      .all('Invoices')
      .find((i) => i.Type === 'ACCPAY' && i.Status === 'AUTHORISED');
    const billId = String(bill?.InvoiceID);
    standin.books().change('Invoices', billId, (record) => {
      record.Reference = 'Changed in Xero';
    });
    // As Xero's stand-in sends it (test/standins/xero/webhooks.ts): Xero's body and signature.
    const sent = xeroWebhook([{ tenantId: tenantId(), category: 'INVOICE', resourceId: billId, eventType: 'UPDATE' }], WEBHOOK_KEY);
    const body = sent.body;
    const answer = await post(body, sent.headers['x-xero-signature'] ?? null);
    expect([answer.statusCode, answer.body]).toEqual([200, '']);
    // An invoice event may be a sales invoice or a bill: both are read.
    expect(summary()).toEqual({ changes: 2, sync_runs: 1, revoked: 0, duplicate: false });
    const run = (
      await t.db.pool.query<{ trigger: string; request: Json }>(
        `SELECT trigger, request FROM sync_runs WHERE connection_id = $1 ORDER BY created_at DESC LIMIT 1`,
        [connection.id],
      )
    ).rows[0];
    expect(run?.trigger).toBe('platform_webhook');
    expect(run?.request.object_types).toEqual(expect.arrayContaining(['BILL', 'INVOICE']));
    const delivered = await until(
      () => receiver.bodies.find((b) => b.code === 'BILL_UPDATED' && (b.bill as Json | undefined)?.platform_id === billId),
      30_000,
    );
    expect(delivered).toMatchObject({ type: 'BILL', connection_id: connection.id });
    const stored = await t.db.pool.query<{ raw: Json }>(
      `SELECT raw FROM records WHERE connection_id = $1 AND object_type = 'bill' AND platform_id = $2`,
      [connection.id, billId],
    );
    expect(stored.rows[0]?.raw.Reference).toBe('Changed in Xero');
    const kept = (
      await t.db.pool.query<{ changes: number; sync_run_ids: string[] }>(
        'SELECT changes, sync_run_ids FROM platform_webhook_receipts ORDER BY received_at DESC LIMIT 1',
      )
    ).rows[0];
    expect(kept?.changes).toBe(2);
    expect(kept?.sync_run_ids.length).toBe(1);

    // The same notification again (Xero retrying after a lost answer, or a replay): taken once, nothing queued.
    const runsBefore = (await t.db.pool.query('SELECT id FROM sync_runs WHERE connection_id = $1', [connection.id])).rowCount;
    const again = await post(body, sign(body));
    expect(again.statusCode).toBe(200);
    expect(summary()).toEqual({ changes: 2, sync_runs: 0, revoked: 0, duplicate: true });
    expect((await t.db.pool.query('SELECT id FROM sync_runs WHERE connection_id = $1', [connection.id])).rowCount).toBe(runsBefore);
    expect(logged('platform webhook received again: ignored').at(-1)).toMatchObject({
      platform: PLATFORM,
      organization_id: t.org.organization.id,
      duplicate: true,
    });
  }, 60_000);

  it('syncs the named types when the notification arrives while a sync of that connection runs: after it, never lost', async () => {
    const bill = standin
      .books()
      .all('Invoices')
      .find((i) => i.Type === 'ACCPAY' && i.Status === 'AUTHORISED' && i.Reference !== 'Changed in Xero');
    const billId = String(bill?.InvoiceID);
    // A sync of the connection is running, as a worker runs one: its run is 'running' and the worker's session holds the
    // connection's sync lock, so nothing else syncs the connection until it ends.
    // (Taken once the earlier tests' runs are over.)
    const session = await t.db.pool.connect();
    await until(async () => ((await tryLockConnectionSync(session, connection.id)) ? true : undefined), 30_000);
    const running = (
      await t.db.pool.query<{ id: string }>(
        `INSERT INTO sync_runs (connection_id, kind, trigger, status, request) VALUES ($1, 'incremental', 'schedule', 'running', '{}') RETURNING id`,
        [connection.id],
      )
    ).rows[0]?.id;
    try {
      // The bill changes in Xero after the running sync read bills: only a sync after it can see the change.
      standin.books().change('Invoices', billId, (record) => {
        record.Reference = 'Changed during a sync';
      });
      const sent = xeroWebhook([{ tenantId: tenantId(), category: 'INVOICE', resourceId: billId, eventType: 'UPDATE' }], WEBHOOK_KEY);
      const answer = await post(sent.body, sent.headers['x-xero-signature'] ?? null);
      expect([answer.statusCode, summary()]).toEqual([200, { changes: 2, sync_runs: 1, revoked: 0, duplicate: false }]);
      const queued = await t.db.pool.query<{ id: string; request: Json }>(
        `SELECT id, request FROM sync_runs WHERE connection_id = $1 AND status = 'queued' AND trigger = 'platform_webhook'`,
        [connection.id],
      );
      expect(queued.rows.map((r) => r.id)).not.toContain(running);
      expect(queued.rows.flatMap((r) => r.request.object_types as string[])).toEqual(expect.arrayContaining(['BILL', 'INVOICE']));
    } finally {
      // The running sync ends.
      await t.db.pool.query(`UPDATE sync_runs SET status = 'completed', finished_at = clock_timestamp() WHERE id = $1`, [running]);
      await unlockConnectionSync(session, connection.id);
      session.release();
    }
    // The notification's run then reads the bill, and our webhook announces the change.
    await until(async () => {
      const stored = await t.db.pool.query<{ raw: Json }>(
        `SELECT raw FROM records WHERE connection_id = $1 AND object_type = 'bill' AND platform_id = $2`,
        [connection.id, billId],
      );
      return stored.rows[0]?.raw.Reference === 'Changed during a sync' ? true : undefined;
    }, 30_000);
    const delivered = await until(
      () => receiver.bodies.find((b) => b.code === 'BILL_UPDATED' && (b.bill as Json | undefined)?.platform_id === billId),
      30_000,
    );
    expect(delivered).toMatchObject({ type: 'BILL', connection_id: connection.id });
    await until(async () => {
      const run = await t.db.pool.query<{ status: string }>(
        `SELECT status FROM sync_runs WHERE connection_id = $1 AND trigger = 'platform_webhook' ORDER BY created_at DESC LIMIT 1`,
        [connection.id],
      );
      return run.rows[0]?.status === 'completed' ? true : undefined;
    }, 30_000);
  }, 60_000);

  it("syncs the named types after the connection's initial sync, when the notification arrives while it runs", async () => {
    // A second Xero organisation is linked; its initial sync reads bills, then is held before its next read.
    const second = standin.tenants[1];
    const { connection: linking } = await oauthConnection(t, {
      platform: PLATFORM,
      app: { ...APP, webhookKey: WEBHOOK_KEY },
      tokens: standin.issueTokens(APP.clientId, [second?.id ?? '']),
      identity: { storeUniqueId: second?.id ?? '', storeName: second?.name ?? null },
    });
    let reached = (): void => undefined;
    let release = (): void => undefined;
    const reachedHold = new Promise<void>((resolve) => {
      reached = resolve;
    });
    held = {
      connectionId: linking.id,
      billsRead: false,
      reached,
      released: new Promise<void>((resolve) => {
        release = resolve;
      }),
    };
    const initial = await requestSync(t.db.pool, t.services.jobs, linking.id, { kind: 'initial', trigger: 'link', details: {} });
    const bill = standin
      .books(second?.id)
      .all('Invoices')
      .find((i) => i.Type === 'ACCPAY' && i.Status === 'AUTHORISED');
    const billId = String(bill?.InvoiceID);
    const contactId = String(standin.books(second?.id).all('Contacts')[0]?.ContactID);
    try {
      await reachedHold;
      // The bill changes in Xero after the initial sync read bills: it does not read them again.
      standin.books(second?.id).change('Invoices', billId, (record) => {
        record.Reference = 'Changed during the initial sync';
      });
      const first = xeroWebhook([{ tenantId: second?.id ?? '', category: 'INVOICE', resourceId: billId, eventType: 'UPDATE' }], WEBHOOK_KEY);
      expect((await post(first.body, first.headers['x-xero-signature'] ?? null)).statusCode).toBe(200);
      expect(summary()).toEqual({ changes: 2, sync_runs: 1, revoked: 0, duplicate: false });
      // A second notification during the same initial sync joins the first's run.
      const again = xeroWebhook([{ tenantId: second?.id ?? '', category: 'CONTACT', resourceId: contactId, eventType: 'UPDATE' }], WEBHOOK_KEY);
      expect((await post(again.body, again.headers['x-xero-signature'] ?? null)).statusCode).toBe(200);
      expect(summary()).toEqual({ changes: 2, sync_runs: 1, revoked: 0, duplicate: false });
    } finally {
      release();
      held = null;
    }
    const followUps = async () =>
      (
        await t.db.pool.query<{ id: string; status: string; request: Json; started_at: Date | null }>(
          `SELECT id, status, request, started_at FROM sync_runs WHERE connection_id = $1 AND trigger = 'platform_webhook'`,
          [linking.id],
        )
      ).rows;
    expect((await followUps()).map((r) => r.request.object_types)).toEqual([expect.arrayContaining(['BILL', 'INVOICE', 'CUSTOMER', 'VENDOR'])]);
    // The initial sync completes; then, and only then, the notifications' one run reads the bill again.
    const done = await until(async () => {
      const [run] = await followUps();
      return run?.status === 'completed' ? run : undefined;
    }, 60_000);
    const initialRun = (
      await t.db.pool.query<{ status: string; finished_at: Date }>('SELECT status, finished_at FROM sync_runs WHERE id = $1', [initial.id])
    ).rows[0];
    expect(initialRun?.status).toBe('completed');
    expect(done.started_at?.getTime()).toBeGreaterThanOrEqual(initialRun?.finished_at.getTime() ?? Infinity);
    const stored = await t.db.pool.query<{ raw: Json }>(
      `SELECT raw FROM records WHERE connection_id = $1 AND object_type = 'bill' AND platform_id = $2`,
      [linking.id, billId],
    );
    expect(stored.rows[0]?.raw.Reference).toBe('Changed during the initial sync');
  }, 90_000);

  it('refuses what it cannot verify or read, and records none of it', async () => {
    const before = await receipts();
    const body = notification([xeroEvent(randomUUID())]);
    for (const signature of [null, '', sign(body, 'wrong key'), sign(`${body} `)]) {
      const refused = await post(body, signature);
      expect([refused.statusCode, refused.body], String(signature)).toEqual([401, '']);
    }
    // Another organisation's address: its app has no webhook key, so nothing can be verified there.
    const other = await t.newOrg();
    await registerOAuthApp(t, PLATFORM, APP, other);
    const elsewhere = await post(body, sign(body), `/platform-webhooks/${PLATFORM}/${other.organization.id}/sandbox`);
    expect([elsewhere.statusCode, elsewhere.body]).toEqual([401, '']);
    // Production has no app at all.
    expect((await post(body, sign(body), `/platform-webhooks/${PLATFORM}/${t.org.organization.id}/production`)).statusCode).toBe(401);
    const sandbox = await post(body, sign(body), `/platform-webhooks/SANDBOX/${t.org.organization.id}/sandbox`);
    expect([sandbox.statusCode, errorBody(sandbox).error_code]).toEqual([404, 'ROUTE_NOT_FOUND']);
    expect((await post(body, sign(body), `/platform-webhooks/${PLATFORM}/not-a-uuid/sandbox`)).statusCode).toBe(400);
    expect((await post(body, sign(body), `/platform-webhooks/${PLATFORM}/${t.org.organization.id}/staging`)).statusCode).toBe(400);
    const notJson = '{"events": [';
    expect(errorBody(await post(notJson, sign(notJson))).error_code).toBe('MALFORMED_JSON');
    const notXero = JSON.stringify({ eventNotifications: [] });
    const wrongShape = await post(notXero, sign(notXero));
    expect([wrongShape.statusCode, errorBody(wrongShape).error_code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(await receipts()).toBe(before);
    // Each refusal of a signature is logged with its reason, for an operator to see forgeries and misconfigurations.
    const refusals = logged('platform webhook refused');
    expect(refusals.filter((line) => line.reason === 'bad_signature').length).toBeGreaterThanOrEqual(4);
    expect(refusals.some((line) => line.reason === 'no_key' && line.organization_id === other.organization.id)).toBe(true);
  });

  it("syncs only the organisation's own connections: another organisation naming our tenant reaches none of ours", async () => {
    const other = await t.newOrg();
    await registerOAuthApp(t, PLATFORM, { ...APP, webhookKey: 'their-key' }, other);
    const body = notification([xeroEvent(randomUUID())]);
    const theirs = await post(body, sign(body, 'their-key'), `/platform-webhooks/${PLATFORM}/${other.organization.id}/sandbox`);
    expect(theirs.statusCode).toBe(200);
    expect(summary()).toEqual({ changes: 2, sync_runs: 0, revoked: 0, duplicate: false });
  });

  it('lets the operator register the key with the OAuth app, never shows it, and refuses it for a platform that sends none', async () => {
    const id = t.org.organization.id;
    const put = (platform: string, body: Json) =>
      t.app.inject({
        method: 'PUT',
        url: `/admin/organizations/${id}/oauth_apps/${platform}`,
        headers: { authorization: `Bearer ${t.adminToken}` },
        payload: body,
      });
    const app = { environment: 'production', client_id: 'abc', client_secret: 'def', redirect_uri: 'https://api.example.com/link/oauth/callback' };
    const set = await put('XERO', { ...app, webhook_key: 'k'.repeat(40) });
    expect(set.statusCode).toBe(200);
    expect(json(set).oauth_app).toMatchObject({ platform: 'XERO', has_webhook_key: true });
    expect(set.body).not.toContain('k'.repeat(40));
    const without = await put('XERO', app);
    expect(json(without).oauth_app).toMatchObject({ has_webhook_key: false });
    const unauthorised = await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${id}/oauth_apps/XERO`,
      payload: { ...app, webhook_key: 'x' },
    });
    expect(unauthorised.statusCode).toBe(401);
    for (const [platform, key] of [
      ['XERO', ''],
      ['SANDBOX', 'x'],
    ] as const) {
      const refused = await put(platform, { ...app, webhook_key: key });
      expect(refused.statusCode, platform).toBe(400);
    }
  });
});
