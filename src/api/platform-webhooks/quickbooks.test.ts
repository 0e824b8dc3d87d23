/**
 * QuickBooks Online's webhooks through the real service: the QuickBooks stand-in's company changes, Intuit's signed
 * notification of it (CloudEvents, and the earlier format) reaches our stored copy through a sync worker, and our
 * entity webhook is delivered; a notification under another verifier token changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuickBooksStandIn, type QuickBooksStandIn } from '../../../test/standins/quickbooks/index.ts';
import { intuitWebhook } from '../../../test/standins/quickbooks/webhooks.ts';
import { errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { setEnv } from '../../../test/support/env.ts';
import { expectSynced, oauthConnection } from '../../../test/support/oauth-connection.ts';
import { WebhookReceiver } from '../../../test/support/webhook-receiver.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import { startSyncWorkers } from '../../sync/worker.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../webhooks/dispatcher.ts';

type Json = Record<string, unknown>;

const APP = { clientId: 'ABqbo-hooks-client', clientSecret: 'qbo-hooks-secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' };
const VERIFIER = 'intuit-verifier-token-0123';

let t: TestApp;
let qbo: QuickBooksStandIn;
let restoreEnv: () => void = () => undefined;
let receiver: WebhookReceiver;
let dispatcher: WebhookDispatcher;
let connection: ConnectionRecord;

beforeAll(async () => {
  qbo = await startQuickBooksStandIn({});
  qbo.registerClient(APP);
  restoreEnv = setEnv({
    QUICKBOOKS_API_URL: qbo.url,
    QUICKBOOKS_TOKEN_URL: `${qbo.url}/oauth2/v1/tokens/bearer`,
    QUICKBOOKS_AUTHORIZE_URL: `${qbo.url}/connect/oauth2`,
  });
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 }, webhookAllowPrivate: true } });
  ({ connection } = await oauthConnection(t, {
    platform: 'QUICKBOOKS',
    app: { ...APP, webhookKey: VERIFIER },
    tokens: qbo.issueTokens({ clientId: APP.clientId, realmId: qbo.realmId }),
    identity: { storeUniqueId: qbo.realmId, storeName: qbo.company().name },
  }));
  await expectSynced(t, connection.id, 'initial');
  receiver = new WebhookReceiver();
  await t.db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    t.org.organization.id,
    'sandbox',
    await receiver.listen(t.org.credentials.sandbox.client_secret),
  ]);
  await startSyncWorkers(t.boss, t.services, { concurrency: 1 });
  dispatcher = startWebhookDispatcher(t.services, { pollMs: 50 });
}, 120_000);
afterAll(async () => {
  await dispatcher.stop();
  await receiver.close();
  await t.close();
  await qbo.close();
  restoreEnv();
});

const post = (sent: { body: string; headers: Record<string, string> }) =>
  t.app.inject({
    method: 'POST',
    url: `/platform-webhooks/QUICKBOOKS/${t.org.organization.id}/sandbox`,
    payload: sent.body,
    headers: sent.headers,
  });

async function delivered(code: string, key: string, platformId: string): Promise<Json> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = receiver.bodies.find((b) => b.code === code && (b[key] as Json | undefined)?.platform_id === platformId);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${code} for ${platformId}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('POST /platform-webhooks/QUICKBOOKS/…', () => {
  it("takes a changed bill from Intuit's CloudEvents notification to our BILL_UPDATED", async () => {
    const [bill] = qbo.company().list('Bill');
    const billId = String(bill?.Id);
    qbo.company().edit('Bill', billId, (record) => {
      record.PrivateNote = 'Changed in QuickBooks';
    });
    const answer = await post(intuitWebhook([{ realmId: qbo.realmId, entity: 'Bill', id: billId, operation: 'Update' }], VERIFIER));
    expect([answer.statusCode, json(answer)]).toEqual([200, { changes: 1, sync_runs: 1, revoked: 0, duplicate: false }]);
    expect(await delivered('BILL_UPDATED', 'bill', billId)).toMatchObject({
      type: 'BILL',
      connection_id: connection.id,
      bill: { memo: 'Changed in QuickBooks' },
    });
  }, 60_000);

  it("reads Intuit's earlier format the same way", async () => {
    const [customer] = qbo.company().list('Customer');
    const customerId = String(customer?.Id);
    qbo.company().edit('Customer', customerId, (record) => {
      record.Notes = 'Prefers email';
      record.DisplayName = `${String(record.DisplayName)} (renamed)`;
    });
    const answer = await post(intuitWebhook([{ realmId: qbo.realmId, entity: 'Customer', id: customerId, operation: 'Update' }], VERIFIER, 'legacy'));
    expect(json(answer)).toMatchObject({ sync_runs: 1 });
    const updated = await delivered('CUSTOMER_UPDATED', 'customer', customerId);
    expect(String((updated.customer as Json).customer_name)).toContain('(renamed)');
  }, 60_000);

  it('refuses a notification signed with another verifier token, and names no realm of another organisation', async () => {
    const forged = await post(intuitWebhook([{ realmId: qbo.realmId, entity: 'Bill', id: '1', operation: 'Update' }], 'not-the-token'));
    expect([forged.statusCode, errorBody(forged).error_code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const elsewhere = await post(intuitWebhook([{ realmId: '4620816365000000000', entity: 'Bill', id: '1', operation: 'Update' }], VERIFIER));
    expect(json(elsewhere)).toEqual({ changes: 1, sync_runs: 0, revoked: 0, duplicate: false });
  });
});
