import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateSecret } from '../../src/tenants/organizations.ts';
import { basicAuth, clientHeaders, errorBody, json, startTestApp, VERSION, type TestApp } from '../support/app.ts';
import { probeEndpoints } from '../support/probe-endpoints.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ extraVersionedEndpoints: probeEndpoints({ executions: 0 }) });
});
afterAll(async () => {
  await t.close();
});

const url = '/versioned/_probe/whoami';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function expectInvalid(authorization: string | undefined) {
  const response = await t.app.inject({
    method: 'GET',
    url,
    headers: { 'x-service-version': VERSION, ...(authorization === undefined ? {} : { authorization }) },
  });
  expect(response.statusCode).toBe(401);
  const body = errorBody(response);
  expect(body.error_code).toBe('INVALID_CREDENTIALS');
  expect(body.error_type).toBe('CONNECTION_ERROR');
  expect(response.headers['www-authenticate']).toMatch(/^Basic/);
  return body;
}

describe('client authentication', () => {
  it('accepts valid credentials and derives organisation and environment from them', async () => {
    for (const env of ['sandbox', 'production'] as const) {
      const response = await t.app.inject({ method: 'GET', url, headers: clientHeaders(t.org, env) });
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual({ organization_id: t.org.organization.id, environment: env, version: VERSION });
    }
  });

  it('rejects a missing Authorization header', async () => {
    expect((await expectInvalid(undefined)).error_message).toMatch(/Missing credentials/);
  });

  it('rejects malformed Basic headers', async () => {
    await expectInvalid('Basic');
    await expectInvalid('Basic !!!not-base64!!!');
    await expectInvalid(`Basic ${Buffer.from('no-colon-here').toString('base64')}`);
    await expectInvalid(`Basic ${Buffer.from(':secret-only').toString('base64')}`);
    await expectInvalid(`Basic ${Buffer.from('id-only:').toString('base64')}`);
    await expectInvalid(`Bearer ${t.org.credentials.sandbox.client_secret}`);
    await expectInvalid(`Basic ${Buffer.from(`${'x'.repeat(5000)}:y`).toString('base64')}`);
  });

  it('rejects a wrong secret and an unknown client_id', async () => {
    await expectInvalid(basic(t.org.credentials.sandbox.client_id, 'lpsk_wrong'));
    await expectInvalid(basic('lp_sandbox_unknown', t.org.credentials.sandbox.client_secret));
  });

  it("rejects the other environment's secret with this environment's client_id", async () => {
    await expectInvalid(basic(t.org.credentials.sandbox.client_id, t.org.credentials.production.client_secret));
    await expectInvalid(basic(t.org.credentials.production.client_id, t.org.credentials.sandbox.client_secret));
  });

  it("rejects another organisation's secret", async () => {
    const other = await t.newOrg();
    await expectInvalid(basic(t.org.credentials.sandbox.client_id, other.credentials.sandbox.client_secret));
  });

  it('keeps the old secret during the grace period and refuses it after', async () => {
    const org = await t.newOrg('Rotating');
    const before = basicAuth(org, 'sandbox');
    const rotated = await rotateSecret(t.db.pool, t.services.cipher, org.organization.id, 'sandbox', 1);
    expect(rotated.client_id).toBe(org.credentials.sandbox.client_id);
    const after = basic(rotated.client_id, rotated.client_secret);
    const ok = (authorization: string) => t.app.inject({ method: 'GET', url, headers: { authorization, 'x-service-version': VERSION } });
    expect((await ok(before)).statusCode).toBe(200);
    expect((await ok(after)).statusCode).toBe(200);
    await sleep(1300);
    await expectInvalid(before);
    expect((await ok(after)).statusCode).toBe(200);
    // The production credentials were not touched.
    expect((await ok(basicAuth(org, 'production'))).statusCode).toBe(200);
  });

  it('revokes the old secret at once with a zero grace period', async () => {
    const org = await t.newOrg('Revoking');
    await rotateSecret(t.db.pool, t.services.cipher, org.organization.id, 'production', 0);
    await expectInvalid(basicAuth(org, 'production'));
  });
});

describe('versioning', () => {
  it('requires the version header and lists the accepted versions', async () => {
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization: basicAuth(t.org) } });
    expect(response.statusCode).toBe(400);
    const body = errorBody(response);
    expect(body.error_code).toBe('MISSING_VERSION');
    expect(body.error_message).toContain('2024-08-31, 2024-04-30, 2023-03-14, 2023-02-07');
  });

  it('rejects an unknown version', async () => {
    for (const version of ['2025-01-01', '2024-8-31', 'latest', ' ']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { authorization: basicAuth(t.org), 'x-service-version': version } });
      expect(response.statusCode).toBe(400);
      expect(['UNSUPPORTED_VERSION', 'MISSING_VERSION']).toContain(errorBody(response).error_code);
    }
  });

  it('accepts every published version', async () => {
    for (const version of ['2024-08-31', '2024-04-30', '2023-03-14', '2023-02-07']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { authorization: basicAuth(t.org), 'x-service-version': version } });
      expect(json(response).version).toBe(version);
    }
  });
});
