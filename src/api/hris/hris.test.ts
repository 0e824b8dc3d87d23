/**
 * GET /hris/departments and /hris/organizations through the real server: SANDBOX's departments and business in the
 * reference's HRIS fields, the same records as the accounting paths serve, the employees' department ids resolving
 * here; QuickBooks Online's through its stand-in; a platform without departments refused; auth, other tenants' ids and
 * malformed input refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, type TestApp } from '../../../test/support/app.ts';
import { oauthConnection } from '../../../test/support/oauth-connection.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';
import type { QuickBooksStandIn } from '../../../test/standins/quickbooks/index.ts';
import { startReadApp, type ReadApp } from '../../../test/support/read-app.ts';

type Json = Record<string, unknown>;

let r: ReadApp;
let t: TestApp;
let c: SyncedConnection;
let qbo: QuickBooksStandIn;
const get = (url: string, token: string, headers?: Record<string, string>) => r.get(url, token, headers);
const ok = (url: string, token?: string) => r.ok(url, token);

beforeAll(async () => {
  r = await startReadApp('user_hris_size_300');
  ({ t, c, qbo } = r);
}, 120_000);
afterAll(async () => {
  await r.close();
});

describe('GET /hris/departments', () => {
  it("serves the accounting departments in the reference's HRIS fields, the employees' department ids among them", async () => {
    const hris = (await ok('/hris/departments?limit=500')).departments as Json[];
    const accounting = (await ok('/accounting/departments?limit=500')).departments as Json[];
    expect(hris.length).toBeGreaterThan(0);
    expect(hris.map((d) => d.id).sort()).toEqual(accounting.map((d) => d.id).sort());
    for (const department of hris) {
      const twin = accounting.find((d) => d.id === department.id) ?? {};
      expect(department).toEqual({
        id: twin.id,
        platform_id: twin.platform_id,
        manager_id: null,
        parent_department_id: twin.parent_id,
        name: twin.name,
        custom_fields: {},
        description: null,
        created_at: twin.created_at,
        updated_at: twin.updated_at,
        last_synced_at: twin.last_synced_at,
      });
    }
    const employees = (await ok('/hris/employees?limit=500')).employees as Json[];
    const ids = new Set(hris.map((d) => d.id));
    expect(employees.every((e) => e.department_id === null || ids.has(e.department_id))).toBe(true);

    const first = hris[0] ?? {};
    const one = await ok(`/hris/departments/${String(first.id)}`);
    expect(one.department).toEqual(first);
    expect(one.connection).toMatchObject({ id: c.connection.id, platform: 'SANDBOX' });
    const byPlatformId = await ok(`/hris/departments/${String(first.platform_id)}?id_type=platform&expand=platform_data`);
    expect((byPlatformId.department as Json).id).toBe(first.id);
    expect(typeof (byPlatformId.department as Json).platform_data).toBe('object');

    const page = await ok('/hris/departments?limit=1');
    expect(page.departments as Json[]).toHaveLength(1);
    if (hris.length > 1) {
      const next = await ok(`/hris/departments?limit=1&cursor=${String(page.next_cursor)}`);
      expect((next.departments as Json[])[0]?.id).not.toBe((page.departments as Json[])[0]?.id);
    }
  });
});

describe('GET /hris/organizations', () => {
  it('serves the business as the company info has it', async () => {
    const company = (await ok('/accounting/company_info')).company_info as Json;
    const list = (await ok('/hris/organizations')).organizations as Json[];
    expect(list).toHaveLength(1);
    const organization = list[0] ?? {};
    expect(organization).toMatchObject({
      id: company.id,
      platform_id: company.platform_id,
      name: company.name,
      legal_name: company.legal_name,
      tax_id: company.tax_number,
      contact_email: company.email,
      contact_phone: company.phone,
      custom_fields: {},
      industry: null,
      logo_url: null,
      number_of_employees: null,
      website: null,
      last_synced_at: company.last_synced_at,
    });
    const [address] = company.addresses as Json[];
    expect(organization.address).toEqual(
      address === undefined
        ? null
        : {
            city: address.city ?? '',
            country: address.country ?? '',
            street: [address.address1, address.address2, address.address3].filter((l) => typeof l === 'string' && l !== '').join(', '),
            postal_code: address.postal_code,
            state: address.region,
          },
    );
    expect((await ok(`/hris/organizations/${String(organization.id)}`)).organization).toEqual(organization);
  });
});

describe('HRIS views on other platforms', () => {
  it("serve QuickBooks Online's departments and company through its stand-in", async () => {
    const { token } = await r.quickbooks();
    const departments = (await ok('/hris/departments?limit=500', token)).departments as Json[];
    const accounting = (await ok('/accounting/departments?limit=500', token)).departments as Json[];
    expect(departments.length).toBe(accounting.length);
    expect(departments.length).toBeGreaterThan(0);
    expect(departments.every((d) => d.manager_id === null && typeof d.name === 'string')).toBe(true);
    const [organization] = (await ok('/hris/organizations', token)).organizations as Json[];
    expect(organization).toMatchObject({ name: "Larry's Bakery", platform_id: '1' });
    expect(qbo.violations).toEqual([]);
  });

  it('answer 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM where the platform has no departments', async () => {
    const { connection, token } = await oauthConnection(t, {
      platform: 'STRIPE',
      app: { clientId: 'ca_hris', clientSecret: 'sk_hris', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' },
      tokens: { accessToken: 'sk_test_hris', refreshToken: null, expiresAt: null, tenantId: null },
      identity: { storeUniqueId: 'acct_hris', storeName: 'Stripe HRIS' },
    });
    // Synced or not, the platform is refused before anything is read.
    await t.db.pool.query('UPDATE connections SET ready_at = now() WHERE id = $1', [connection.id]);
    for (const path of ['/hris/departments', '/hris/organizations']) {
      const response = await get(path, token);
      expect(response.statusCode, path).toBe(404);
      expect(errorBody(response).error_code, path).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
    }
  });
});

describe('HRIS view refusals', () => {
  it('refuse missing auth, another organisation, other connections’ ids and malformed input', async () => {
    const [department] = (await ok('/hris/departments')).departments as Json[];
    const [organization] = (await ok('/hris/organizations')).organizations as Json[];
    for (const path of ['/hris/departments', `/hris/departments/${String(department?.id)}`, '/hris/organizations']) {
      expect((await get(path, c.token, { 'x-service-version': '2024-08-31' })).statusCode, path).toBe(401);
    }
    const otherOrg = await t.newOrg('HRIS other');
    const foreign = await get('/hris/departments', c.token, clientHeaders(otherOrg));
    expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
    const theirs = await syncedSandboxConnection(t, 'user_hris_other_size_60', otherOrg);
    for (const path of [`/hris/departments/${String(department?.id)}`, `/hris/organizations/${String(organization?.id)}`]) {
      const crossed = await get(path, theirs.token, clientHeaders(otherOrg));
      expect(crossed.statusCode, path).toBe(410);
      expect(errorBody(crossed).error_code, path).toBe('RESOURCE_NOT_FOUND');
    }
    for (const query of ['limit=0', 'limit=501', 'cursor=%25%25', 'updated_at_min=yesterday', 'expand=everything', 'filter=name']) {
      const response = await get(`/hris/departments?${query}`, c.token);
      expect(response.statusCode, query).toBe(400);
    }
    expect((await get('/hris/departments/x?id_type=neither', c.token)).statusCode).toBe(400);
  });
});
