/**
 * Employees through the real server against SANDBOX: the reference's HRIS path and envelope, links to departments
 * and managers that resolve, the F fields, refusals, and EMPLOYEE_* webhooks as the sandbox's people come and go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { MODEL } from '../../model/index.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { eventsOf, incrementalSync, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';

type Json = Record<string, unknown>;

const USER = 'user_employees_size_1500';
let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  c = await syncedSandboxConnection(t, USER);
}, 120_000);
afterAll(async () => { await t.close(); });

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });

async function employees(query = ''): Promise<Json[]> {
  const response = await get(`/hris/employees?access_token=${c.token}&limit=500${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return json(response).employees as Json[];
}

describe('GET /hris/employees', () => {
  it('lists the business\'s people in the reference\'s envelope, each of the schema', async () => {
    const response = await get(`/hris/employees?access_token=${c.token}&limit=5`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'employees', 'next_cursor']);
    expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    const all = await employees();
    expect(all.length).toBeGreaterThanOrEqual(7);
    for (const employee of all) expect(Value.Check(MODEL.employee.schema, employee), JSON.stringify(employee)).toBe(true);
    expect(all.every((e) => typeof e.first_name === 'string' && e.first_name !== '' && typeof e.salary === 'number')).toBe(true);
    expect(all.some((e) => Object.keys(e.custom_fields as Json).includes('Pay frequency'))).toBe(true);
  });

  it('links every employee to a department and a manager that resolve, under one managing director', async () => {
    const all = await employees();
    const ids = new Set(all.map((e) => e.id));
    const top = all.filter((e) => e.manager_id === null);
    expect(top.map((e) => e.position)).toEqual(['Managing Director']);
    for (const employee of all) {
      if (employee.manager_id !== null) expect(ids.has(employee.manager_id), String(employee.id)).toBe(true);
    }
    for (const departmentId of new Set(all.map((e) => String(e.department_id)))) {
      const department = await get(`/accounting/departments/${departmentId}?access_token=${c.token}`);
      expect(department.statusCode, departmentId).toBe(200);
    }
    const managed = all.find((e) => e.manager_id !== null);
    const manager = await get(`/hris/employees/${String(managed?.manager_id)}?access_token=${c.token}`);
    expect(manager.statusCode).toBe(200);
    expect(Object.keys(json(manager)).sort()).toEqual(['connection', 'employee']);
    expect((json(manager).employee as Json).id).toBe(managed?.manager_id);
  });

  it('filters and sorts on its F fields', async () => {
    const all = await employees();
    const terminated = await employees(`&filter=${encodeURIComponent('status = "terminated"')}`);
    expect(terminated.length).toBeGreaterThan(0);
    expect(terminated.map((e) => e.id).sort()).toEqual(all.filter((e) => e.status === 'terminated').map((e) => e.id).sort());
    expect(terminated.every((e) => typeof e.termination_date === 'string')).toBe(true);
    const director = all.find((e) => e.manager_id === null);
    const reports = await employees(`&filter=${encodeURIComponent(`manager_id = "${String(director?.id)}"`)}`);
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.every((e) => e.manager_id === director?.id)).toBe(true);
    const department = String(all[0]?.department_id);
    const inDepartment = await employees(`&filter=${encodeURIComponent(`department_id = "${department}" AND hire_date >= 2000-01-01`)}`);
    expect(inDepartment.map((e) => e.id).sort()).toEqual(all.filter((e) => e.department_id === department).map((e) => e.id).sort());
    const byHire = (await employees('&sort=hire_date%20ASC')).map((e) => String(e.hire_date));
    expect(byHire).toEqual([...byHire].sort());
  });

  it('refuses missing auth, another organisation\'s credentials, other connections\' ids and malformed input', async () => {
    expect((await get(`/hris/employees?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/hris/employees')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    const foreign = await get(`/hris/employees?access_token=${c.token}`, clientHeaders(otherOrg));
    expect(foreign.statusCode).toBe(401);
    expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
    // Their own connection to other books: our employee ids are not theirs.
    const theirs = await syncedSandboxConnection(t, 'user_employees_other_size_300', otherOrg);
    const [ours] = await employees();
    const crossed = await get(`/hris/employees/${String(ours?.id)}?access_token=${theirs.token}`, clientHeaders(otherOrg));
    expect(crossed.statusCode).toBe(410);
    expect(errorBody(crossed).error_code).toBe('RESOURCE_NOT_FOUND');
    for (const filter of ['first_name = "Ada"', 'status = "fired"', 'hire_date > 2024-02-30', 'salary > 10']) {
      const response = await get(`/hris/employees?access_token=${c.token}&filter=${encodeURIComponent(filter)}`);
      expect(response.statusCode, filter).toBe(400);
      expect(errorBody(response).error_code, filter).toBe('INVALID_FILTER');
    }
    expect((await get(`/hris/employees?access_token=${c.token}&sort=salary`)).statusCode).toBe(400);
    expect((await get(`/accounting/employees?access_token=${c.token}`)).statusCode).toBe(404);
  });

  it('belongs to the accounting product', async () => {
    const org = await t.newOrg('Commerce only');
    const set = await t.app.inject({
      method: 'PUT', url: `/admin/organizations/${org.organization.id}/products`, headers: { authorization: `Bearer ${t.adminToken}` }, payload: { products: ['commerce'] },
    });
    expect(set.statusCode, set.body).toBe(200);
    const refused = await get('/hris/employees?access_token=bogus', clientHeaders(org));
    expect(refused.statusCode).toBe(404);
    expect(errorBody(refused)).toMatchObject({ error_code: 'PRODUCT_NOT_ALLOWED', error_metadata: { product: 'accounting' } });
  });

  it('announces hires and departures of later days as EMPLOYEE_CREATED and EMPLOYEE_UPDATED', async () => {
    const before = new Set((await employees()).map((e) => e.id));
    await t.sandbox.platform.advance(USER, 40);
    await incrementalSync(t, c.connection.id);
    const events = (await eventsOf(t, c.connection.id)).filter((e) => e.code.startsWith('EMPLOYEE_'));
    const created = events.filter((e) => e.code === 'EMPLOYEE_CREATED');
    const updated = events.filter((e) => e.code === 'EMPLOYEE_UPDATED');
    expect(created.length).toBeGreaterThan(0);
    expect(updated.length).toBeGreaterThan(0);
    for (const event of [...created, ...updated]) {
      expect(event.payload).toMatchObject({ type: 'EMPLOYEE', connection_id: c.connection.id, access_token: c.token });
      expect(Value.Check(MODEL.employee.schema, event.payload.employee)).toBe(true);
    }
    for (const event of created) expect(before.has((event.payload.employee as Json).id)).toBe(false);
    const leavers = updated.map((e) => e.payload.employee as Json).filter((e) => e.status === 'terminated');
    expect(leavers.length).toBeGreaterThan(0);
    // Hires join the people already there: their managers resolve.
    const now = new Set((await employees()).map((e) => e.id));
    for (const event of created) expect(now.has((event.payload.employee as Json).manager_id)).toBe(true);
  });
});
