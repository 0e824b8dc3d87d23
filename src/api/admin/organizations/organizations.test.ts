import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { basicAuth, errorBody, json, startTestApp, VERSION, type TestApp } from '../../../../test/support/app.ts';
import { probeEndpoints } from '../../../../test/support/probe-endpoints.ts';
import { contract as createContract } from './create.ts';
import { contract as rotateContract } from './rotate-credentials.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ extraVersionedEndpoints: probeEndpoints({ executions: 0 }) });
});
afterAll(async () => {
  await t.close();
});

const admin = () => ({ authorization: `Bearer ${t.adminToken}` });

describe('POST /admin/organizations', () => {
  it('creates an organisation whose credentials work for both environments', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/admin/organizations', headers: admin(), payload: { name: 'Acme' } });
    expect(response.statusCode).toBe(201);
    const body = json(response);
    expect(Value.Check(createContract.success.schema, body)).toBe(true);
    const created = body as {
      organization: { id: string; name: string };
      credentials: Record<'sandbox' | 'production', { client_id: string; client_secret: string }>;
    };
    expect(created.organization.name).toBe('Acme');
    expect(created.credentials.sandbox.client_id).not.toBe(created.credentials.production.client_id);
    for (const env of ['sandbox', 'production'] as const) {
      const who = await t.app.inject({
        method: 'GET',
        url: '/versioned/_probe/whoami',
        headers: {
          authorization: basicAuth(
            { ...created, organization: { ...created.organization, products: [], disabled_endpoints: [], data_batching: null, created_at: '' } },
            env,
          ),
          'x-service-version': VERSION,
        },
      });
      expect(json(who)).toMatchObject({ organization_id: created.organization.id, environment: env });
    }
  });

  it('never stores a secret in plain text', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/admin/organizations', headers: admin(), payload: { name: 'Plain?' } });
    const secret = (json(response) as { credentials: { sandbox: { client_secret: string } } }).credentials.sandbox.client_secret;
    const hits = await t.db.pool.query(
      `SELECT 1 FROM api_secrets WHERE position($1::bytea IN secret_ciphertext) > 0 OR position($1::bytea IN secret_sha256) > 0`,
      [Buffer.from(secret)],
    );
    expect(hits.rowCount).toBe(0);
  });

  it('refuses a missing, malformed or wrong admin token', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer' }, { authorization: 'Bearer wrong-token-value' }]) {
      const response = await t.app.inject({ method: 'POST', url: '/admin/organizations', headers, payload: { name: 'x' } });
      expect(response.statusCode).toBe(401);
      expect(errorBody(response).error_code).toBe('INVALID_ADMIN_TOKEN');
    }
  });

  it('does not accept client credentials as admin credentials', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/admin/organizations', headers: { authorization: basicAuth(t.org) } });
    expect(response.statusCode).toBe(401);
  });

  it('refuses malformed bodies with the field named', async () => {
    const cases: [unknown, string][] = [
      [{}, '`name` in the request body is required.'],
      [{ name: '' }, '`name` in the request body must be at least 1 characters long.'],
      [{ name: 42 }, '`name` in the request body must be of type string.'],
      [{ name: 'x', extra: true }, '`extra` in the request body is not a known field; remove it.'],
    ];
    for (const [payload, message] of cases) {
      const response = await t.app.inject({ method: 'POST', url: '/admin/organizations', headers: admin(), payload: payload as object });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).error_message).toBe(message);
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/admin/organizations',
      headers: { ...admin(), 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(errorBody(malformed).error_code).toBe('MALFORMED_JSON');
  });
});

describe('GET /admin/organizations', () => {
  it('lists organisations without secrets', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/admin/organizations', headers: admin() });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('lpsk_');
    expect((json(response) as { organizations: { id: string }[] }).organizations.map((o) => o.id)).toContain(t.org.organization.id);
  });
});

describe('POST /admin/organizations/:id/credentials/rotate', () => {
  it('returns the new secret and when the previous one expires', async () => {
    const org = await t.newOrg('Rotate me');
    const before = Date.now();
    const response = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${org.organization.id}/credentials/rotate`,
      headers: admin(),
      payload: { environment: 'production', grace_period_seconds: 3600 },
    });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Value.Check(rotateContract.success.schema, body)).toBe(true);
    expect(body).toMatchObject({ environment: 'production', client_id: org.credentials.production.client_id });
    expect(body.client_secret).not.toBe(org.credentials.production.client_secret);
    const expires = Date.parse(String(body.previous_secret_expires_at));
    expect(expires - before).toBeGreaterThan(3590_000);
    expect(expires - before).toBeLessThan(3610_000);
  });

  it('answers 410 for an organisation that does not exist', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/admin/organizations/00000000-0000-4000-8000-000000000000/credentials/rotate',
      headers: admin(),
      payload: { environment: 'sandbox', grace_period_seconds: 0 },
    });
    expect(response.statusCode).toBe(410);
    expect(errorBody(response).error_code).toBe('RESOURCE_NOT_FOUND');
  });

  it('refuses malformed input', async () => {
    const url = `/admin/organizations/${t.org.organization.id}/credentials/rotate`;
    for (const payload of [
      { environment: 'staging', grace_period_seconds: 0 },
      { environment: 'sandbox', grace_period_seconds: -1 },
      { environment: 'sandbox' },
    ]) {
      const response = await t.app.inject({ method: 'POST', url, headers: admin(), payload });
      expect(response.statusCode).toBe(400);
    }
    const badId = await t.app.inject({
      method: 'POST',
      url: '/admin/organizations/not-a-uuid/credentials/rotate',
      headers: admin(),
      payload: { environment: 'sandbox', grace_period_seconds: 0 },
    });
    expect(badId.statusCode).toBe(400);
    expect(errorBody(badId).error_metadata).toMatchObject({ location: 'params', field: 'id' });
  });
});

describe('PUT /admin/organizations/:id/products', () => {
  const put = (id: string, payload: unknown, headers: Record<string, string> = admin()) =>
    t.app.inject({ method: 'PUT', url: `/admin/organizations/${id}/products`, headers, payload: payload as Record<string, unknown> });

  it('limits what the organisation may use: other products answer PRODUCT_NOT_ALLOWED, before anything else is looked at', async () => {
    const org = await t.newOrg('Accounting only');
    const get = (url: string) =>
      t.app.inject({ method: 'GET', url: `/versioned${url}`, headers: { authorization: basicAuth(org), 'x-service-version': VERSION } });
    // Every product by default: a bogus access token is what is wrong.
    expect(errorBody(await get('/commerce/orders?access_token=bogus')).error_code).toBe('INVALID_CREDENTIALS');

    const set = await put(org.organization.id, { products: ['accounting'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(json(set)).toEqual({ products: ['accounting'] });
    const listed = json(await t.app.inject({ method: 'GET', url: '/admin/organizations', headers: admin() })) as {
      organizations: { id: string; products: string[] }[];
    };
    expect(listed.organizations.find((o) => o.id === org.organization.id)?.products).toEqual(['accounting']);

    for (const [url, product] of [
      ['/commerce/orders?access_token=bogus', 'commerce'],
      ['/accounting/bank_feeds/accounts?access_token=bogus', 'bank_feeds'],
    ] as const) {
      const refused = await get(url);
      expect(refused.statusCode, url).toBe(404);
      expect(errorBody(refused)).toMatchObject({ error_type: 'CONNECTION_ERROR', error_code: 'PRODUCT_NOT_ALLOWED', error_metadata: { product } });
    }
    expect(errorBody(await get('/accounting/bills?access_token=bogus')).error_code).toBe('INVALID_CREDENTIALS');
    // Another organisation is not affected.
    expect(
      errorBody(
        await t.app.inject({
          method: 'GET',
          url: '/versioned/commerce/orders?access_token=bogus',
          headers: { authorization: basicAuth(t.org), 'x-service-version': VERSION },
        }),
      ).error_code,
    ).toBe('INVALID_CREDENTIALS');

    expect(json(await put(org.organization.id, { products: ['bank_feeds', 'commerce', 'accounting', 'payments'] }))).toEqual({
      products: ['accounting', 'commerce', 'payments', 'bank_feeds'],
    });
    expect(errorBody(await get('/commerce/orders?access_token=bogus')).error_code).toBe('INVALID_CREDENTIALS');
  });

  it('refuses missing or wrong admin tokens, unknown organisations and malformed lists, changing nothing', async () => {
    const org = await t.newOrg('Products untouched');
    expect((await put(org.organization.id, { products: [] }, {})).statusCode).toBe(401);
    expect((await put(org.organization.id, { products: [] }, { authorization: basicAuth(org) })).statusCode).toBe(401);
    expect((await put('00000000-0000-4000-8000-000000000000', { products: ['accounting'] })).statusCode).toBe(410);
    for (const payload of [
      { products: ['crypto'] },
      { products: 'accounting' },
      { products: ['accounting', 'accounting'] },
      {},
      { products: [], extra: 1 },
    ]) {
      const refused = await put(org.organization.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorBody(refused).error_code).toBe('VALIDATION_ERROR');
    }
    expect(errorBody(await put(org.organization.id, { products: ['crypto'] })).error_message).toContain('accounting, commerce, payments, bank_feeds');
    expect((await put('not-a-uuid', { products: [] })).statusCode).toBe(400);
    const listed = json(await t.app.inject({ method: 'GET', url: '/admin/organizations', headers: admin() })) as {
      organizations: { id: string; products: string[] }[];
    };
    expect(listed.organizations.find((o) => o.id === org.organization.id)?.products).toEqual(['accounting', 'commerce', 'payments', 'bank_feeds']);
  });
});

describe('PUT /admin/organizations/:id/disabled_endpoints', () => {
  const put = (id: string, payload: unknown, headers: Record<string, string> = admin()) =>
    t.app.inject({ method: 'PUT', url: `/admin/organizations/${id}/disabled_endpoints`, headers, payload: payload as Record<string, unknown> });
  const listedDisabled = async (id: string): Promise<unknown> =>
    (
      json(await t.app.inject({ method: 'GET', url: '/admin/organizations', headers: admin() })) as {
        organizations: { id: string; disabled_endpoints: unknown }[];
      }
    ).organizations.find((o) => o.id === id)?.disabled_endpoints;

  it('turns single endpoints off for the organisation: they answer ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION, the rest as before', async () => {
    const org = await t.newOrg('Read-only lender');
    const call = (method: 'GET' | 'POST', url: string, who = org) =>
      t.app.inject({
        method,
        url: `/versioned${url}`,
        headers: { authorization: basicAuth(who), 'x-service-version': VERSION },
        ...(method === 'POST' ? { payload: { bill: {} } } : {}),
      });
    expect(errorBody(await call('POST', '/accounting/bills?access_token=bogus')).error_code).not.toBe('ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION');

    const set = await put(org.organization.id, {
      disabled_endpoints: ['POST /accounting/bills', 'GET /accounting/bills/:id', 'POST /accounting/bills'],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(json(set)).toEqual({ disabled_endpoints: ['POST /accounting/bills', 'GET /accounting/bills/:id'] });
    expect(await listedDisabled(org.organization.id)).toEqual(['POST /accounting/bills', 'GET /accounting/bills/:id']);

    for (const [method, url, key] of [
      ['POST', '/accounting/bills?access_token=bogus', 'POST /accounting/bills'],
      ['GET', '/accounting/bills/abc?access_token=bogus', 'GET /accounting/bills/:id'],
    ] as const) {
      const refused = await call(method, url);
      expect(refused.statusCode, url).toBe(404);
      expect(errorBody(refused)).toMatchObject({
        error_type: 'INVALID_REQUEST',
        error_code: 'ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION',
        error_metadata: { endpoint: key },
      });
    }
    // The list and other endpoints answer as before; another organisation is not affected.
    expect(errorBody(await call('GET', '/accounting/bills?access_token=bogus')).error_code).toBe('INVALID_CREDENTIALS');
    expect(errorBody(await call('POST', '/accounting/bills?access_token=bogus', t.org)).error_code).not.toBe(
      'ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION',
    );
    // Unauthenticated requests learn nothing about the organisation's settings.
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/versioned/accounting/bills?access_token=bogus',
      headers: { 'x-service-version': VERSION },
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);

    expect(json(await put(org.organization.id, { disabled_endpoints: [] }))).toEqual({ disabled_endpoints: [] });
    expect(errorBody(await call('POST', '/accounting/bills?access_token=bogus')).error_code).not.toBe('ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION');
  });

  it('refuses missing admin tokens, unknown organisations and entries that are no endpoint, changing nothing', async () => {
    const org = await t.newOrg('Endpoints untouched');
    expect((await put(org.organization.id, { disabled_endpoints: [] }, {})).statusCode).toBe(401);
    expect((await put(org.organization.id, { disabled_endpoints: [] }, { authorization: basicAuth(org) })).statusCode).toBe(401);
    expect((await put('00000000-0000-4000-8000-000000000000', { disabled_endpoints: ['POST /accounting/bills'] })).statusCode).toBe(410);
    for (const payload of [
      { disabled_endpoints: ['POST /accounting/bill'] },
      { disabled_endpoints: ['post /accounting/bills'] },
      { disabled_endpoints: ['POST /versioned/accounting/bills'] },
      { disabled_endpoints: ['PUT /admin/organizations/:id/products'] },
      { disabled_endpoints: 'POST /accounting/bills' },
      {},
      { disabled_endpoints: [], extra: 1 },
    ]) {
      const refused = await put(org.organization.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorBody(refused).error_code).toBe('VALIDATION_ERROR');
    }
    expect(
      errorBody(await put(org.organization.id, { disabled_endpoints: ['POST /accounting/bills', 'POST /accounting/bill'] })).error_metadata?.field,
    ).toBe('disabled_endpoints[1]');
    expect(await listedDisabled(org.organization.id)).toEqual([]);
  });
});

describe('PUT /admin/organizations/:id/data_batching', () => {
  const put = (id: string, payload: unknown, headers: Record<string, string> = admin()) =>
    t.app.inject({ method: 'PUT', url: `/admin/organizations/${id}/data_batching`, headers, payload: payload as Record<string, unknown> });
  const listedBatching = async (id: string): Promise<unknown> =>
    (
      json(await t.app.inject({ method: 'GET', url: '/admin/organizations', headers: admin() })) as {
        organizations: { id: string; data_batching: unknown }[];
      }
    ).organizations.find((o) => o.id === id)?.data_batching;

  it("turns the organisation's data batching on and off", async () => {
    const org = await t.newOrg('Batched');
    expect(await listedBatching(org.organization.id)).toBeNull();
    const on = await put(org.organization.id, { months: [1, 6, 12] });
    expect(on.statusCode, on.body).toBe(200);
    expect(json(on)).toEqual({ data_batching: { months: [1, 6, 12] } });
    expect(await listedBatching(org.organization.id)).toEqual({ months: [1, 6, 12] });
    expect(json(await put(org.organization.id, { months: [] }))).toEqual({ data_batching: null });
    expect(await listedBatching(org.organization.id)).toBeNull();
  });

  it('refuses missing admin tokens, unknown organisations and malformed batches, changing nothing', async () => {
    const org = await t.newOrg('Batching untouched');
    expect((await put(org.organization.id, { months: [1] }, {})).statusCode).toBe(401);
    expect((await put('00000000-0000-4000-8000-000000000000', { months: [1] })).statusCode).toBe(410);
    for (const payload of [
      { months: [6, 1] },
      { months: [0] },
      { months: [241] },
      { months: [1.5] },
      { months: 'monthly' },
      {},
      { months: [1], extra: true },
    ]) {
      const refused = await put(org.organization.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorBody(refused).error_code).toBe('VALIDATION_ERROR');
    }
    expect(errorBody(await put(org.organization.id, { months: [6, 1] })).error_message).toContain('strictly ascending');
    expect(await listedBatching(org.organization.id)).toBeNull();
  });
});
