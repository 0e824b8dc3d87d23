/**
 * GET /accounting/{entityType}/custom_fields through the real server: SANDBOX's definitions for each of the
 * reference's five objects in the reference's shape, the route winning over `/:id`, and refusals (missing auth,
 * another organisation's credentials, malformed parameters, platforms without custom fields); QuickBooks Online's
 * sales-form fields from its stand-in's Preferences.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../../test/support/app.ts';
import { oauthConnection, syncedQuickBooksConnection } from '../../../../test/support/oauth-connection.ts';
import { setEnv } from '../../../../test/support/env.ts';
import { startQuickBooksStandIn, type QuickBooksStandIn } from '../../../../test/standins/quickbooks/index.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../../test/support/sandbox-connection.ts';

type Json = Record<string, unknown>;

let t: TestApp;
let c: SyncedConnection;
let qbo: QuickBooksStandIn;
let restoreEnv: () => void = () => undefined;
const QBO_APP = { clientId: 'ABqbo-custom-fields', clientSecret: 'qbo-secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' };

beforeAll(async () => {
  qbo = await startQuickBooksStandIn({ generatedBills: 0 });
  qbo.registerClient(QBO_APP);
  restoreEnv = setEnv({ QUICKBOOKS_API_URL: qbo.url, QUICKBOOKS_TOKEN_URL: `${qbo.url}/oauth2/v1/tokens/bearer` });
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  c = await syncedSandboxConnection(t, 'user_custom_fields_size_300');
}, 120_000);
afterAll(async () => {
  await t.close();
  await qbo.close();
  restoreEnv();
});

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });
const FIELD_KEYS = ['default', 'description', 'key', 'name', 'options', 'required', 'type'];

async function customFields(entityType: string, token = c.token): Promise<{ entity: Json[]; 'entity.line_items': Json[] }> {
  const response = await get(`/accounting/${entityType}/custom_fields?access_token=${token}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(Object.keys(json(response))).toEqual(['custom_fields']);
  return json(response).custom_fields as { entity: Json[]; 'entity.line_items': Json[] };
}

describe('GET /accounting/{entityType}/custom_fields', () => {
  it("answers SANDBOX's invoice fields and their lines' in the reference's shape, not a record with id custom_fields", async () => {
    const fields = await customFields('invoices');
    expect(Object.keys(fields).sort()).toEqual(['entity', 'entity.line_items']);
    expect(fields.entity.map((f) => [f.key, f.name, f.type])).toEqual([
      ['PONumber', 'PO Number', 'string'],
      ['SalesRep', 'Sales Rep', 'select'],
      ['RushOrder', 'Rush Order', 'boolean'],
    ]);
    for (const field of [...fields.entity, ...fields['entity.line_items']]) expect(Object.keys(field).sort()).toEqual(FIELD_KEYS);
    expect(fields.entity[1]).toMatchObject({
      required: false,
      default: 'DIRECT',
      options: [
        { text: 'Direct', value: 'DIRECT' },
        { text: 'Partner', value: 'PARTNER' },
        { text: 'Web shop', value: 'WEB' },
      ],
    });
    expect(fields.entity[2]).toMatchObject({ default: false, options: [] });
    expect(fields['entity.line_items'].map((f) => f.key)).toEqual(['ProjectCode']);
  });

  it('answers each of the reference’s objects: bills and expenses have fields, invoice payments and journal entries none', async () => {
    const bills = await customFields('bills');
    expect(bills.entity.map((f) => [f.key, f.type])).toEqual([
      ['ApprovalRef', 'string'],
      ['CostCentre', 'multiselect'],
    ]);
    expect(bills['entity.line_items'].map((f) => [f.key, f.type, f.default])).toEqual([['BudgetLine', 'number', null]]);
    expect((await customFields('expenses')).entity.map((f) => f.key)).toEqual(['ReceiptNumber']);
    expect(await customFields('invoice_payments')).toEqual({ entity: [], 'entity.line_items': [] });
    expect(await customFields('journal_entries')).toEqual({ entity: [], 'entity.line_items': [] });
    // Other objects have no custom fields path: the word is a path, not an id (404, not 410).
    const vendors = await get(`/accounting/vendors/custom_fields?access_token=${c.token}`);
    expect([vendors.statusCode, errorBody(vendors).error_code]).toEqual([404, 'ROUTE_NOT_FOUND']);
  });

  it("refuses missing auth, another organisation's credentials, and malformed parameters", async () => {
    expect((await get(`/accounting/invoices/custom_fields?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/accounting/invoices/custom_fields')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    const foreign = await get(`/accounting/invoices/custom_fields?access_token=${c.token}`, clientHeaders(otherOrg));
    const unknown = await get('/accounting/invoices/custom_fields?access_token=not-a-token');
    expect([foreign.statusCode, errorBody(foreign).error_code]).toEqual([unknown.statusCode, errorBody(unknown).error_code]);
    const malformed = await get(`/accounting/bills/custom_fields?access_token=${c.token}&force_fetch=maybe`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('force_fetch');
  });

  it("takes no custom_fields in an object's create yet (docs/reference.md): refused by name, nothing written", async () => {
    const before = await customFields('invoices');
    const response = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/invoices?access_token=${c.token}`,
      headers: { ...clientHeaders(t.org), 'content-type': 'application/json' },
      payload: { invoice: { custom_fields: { PONumber: 'PO-1' } } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('custom_fields');
    const jobs = await t.db.pool.query('SELECT count(*)::int AS n FROM write_jobs WHERE connection_id = $1', [c.connection.id]);
    expect(jobs.rows[0]).toEqual({ n: 0 });
    expect(await customFields('invoices')).toEqual(before);
  });

  it("answers QuickBooks Online's sales-form fields for invoices from its Preferences, read live; none for the other objects", async () => {
    const { token } = await syncedQuickBooksConnection(t, qbo, QBO_APP);
    const invoices = await customFields('invoices', token);
    // The recorded Preferences: slot 1 on and named "Crew #", slots 2 and 3 off.
    expect(invoices).toEqual({
      entity: [{ key: '1', name: 'Crew #', description: '', required: false, type: 'string', options: [], default: null }],
      'entity.line_items': [],
    });
    // Turned on and named in QBO since: the next request says so (nothing synced or stored).
    const groups = (qbo.company().preferences.SalesFormsPrefs as { CustomField: { CustomField: Json[] }[] }).CustomField;
    for (const field of groups[0]?.CustomField ?? []) if (field.Name === 'SalesFormsPrefs.UseSalesCustom3') field.BooleanValue = true;
    groups[1]?.CustomField.push({ StringValue: 'Job site', Type: 'StringType', Name: 'SalesFormsPrefs.SalesCustomName3' });
    groups[1]?.CustomField.push({ StringValue: 'Unused', Type: 'StringType', Name: 'SalesFormsPrefs.SalesCustomName2' });
    expect((await customFields('invoices', token)).entity.map((f) => [f.key, f.name])).toEqual([
      ['1', 'Crew #'],
      ['3', 'Job site'],
    ]);
    // Expenses are QBO's Purchases, which have no custom fields the API exposes, as bills have none.
    for (const entityType of ['bills', 'expenses', 'invoice_payments', 'journal_entries'])
      expect(await customFields(entityType, token), entityType).toEqual({ entity: [], 'entity.line_items': [] });
    expect(qbo.log.filter((r) => r.path.endsWith('/preferences')).length).toBeGreaterThanOrEqual(2);
    expect(qbo.violations).toEqual([]);
  });

  it('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM on Xero and Stripe', async () => {
    for (const platform of ['XERO', 'STRIPE'] as const) {
      const { connection, token } = await oauthConnection(t, {
        platform,
        app: { clientId: `cf_${platform}`, clientSecret: 'secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' },
        tokens: { accessToken: `at_${platform}`, refreshToken: null, expiresAt: null, tenantId: platform === 'XERO' ? 'tenant-cf' : null },
        identity: { storeUniqueId: `cf-${platform}`, storeName: `${platform} custom fields` },
      });
      await t.db.pool.query('UPDATE connections SET ready_at = now() WHERE id = $1', [connection.id]);
      const response = await get(`/accounting/invoices/custom_fields?access_token=${token}`);
      expect([response.statusCode, errorBody(response).error_code], platform).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    }
  });
});
