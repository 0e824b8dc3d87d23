import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

interface Operation {
  requestBody?: unknown;
  parameters?: { in: string; name: string }[];
  responses?: Record<string, unknown>;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with both security schemes', async () => {
    const doc = (json(await t.app.inject({ method: 'GET', url: '/openapi.json' })) as Document);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['adminToken', 'basicAuth']);
  });

  it('every route has a response schema, a body schema when it takes one, and path parameters described', async () => {
    const doc = (json(await t.app.inject({ method: 'GET', url: '/openapi.json' })) as Document);
    const problems: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        operations += 1;
        const where = `${method.toUpperCase()} ${path}`;
        const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
        if (success === undefined) problems.push(`${where}: no success response schema`);
        if (['post', 'patch', 'put'].includes(method) && operation.requestBody === undefined) problems.push(`${where}: no request body schema`);
        for (const name of path.match(/\{[^}]+\}/g) ?? []) {
          if (!(operation.parameters ?? []).some((p) => p.in === 'path' && `{${p.name}}` === name)) problems.push(`${where}: path parameter ${name} undocumented`);
        }
        if (path.startsWith('/versioned') && !(operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'x-service-version')) {
          problems.push(`${where}: X-Service-Version header undocumented`);
        }
      }
    }
    expect(operations).toBeGreaterThan(3);
    expect(problems).toEqual([]);
  });

  it('lists the error statuses of each endpoint from its contract', async () => {
    const doc = (json(await t.app.inject({ method: 'GET', url: '/openapi.json' })) as Document);
    const rotate = doc.paths['/admin/organizations/{id}/credentials/rotate']?.post;
    // 401 and 429 come with admin authentication (a refused token; too many refused ones).
    expect(Object.keys(rotate?.responses ?? {}).sort()).toEqual(['200', '400', '401', '410', '429']);
  });

  it('serves the interactive reference at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect([200, 302]).toContain(response.statusCode);
    const page = response.statusCode === 302 ? await t.app.inject({ method: 'GET', url: String(response.headers.location) }) : response;
    expect(page.body).toMatch(/swagger/i);
  });
});
