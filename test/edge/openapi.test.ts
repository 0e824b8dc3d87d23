import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { OBJECT_TYPES } from '../../src/model/object-types.ts';
import { json, startTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Operation {
  requestBody?: unknown;
  parameters?: { in: string; name: string }[];
  responses?: Record<string, unknown>;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with its security schemes (client, operator, dashboard session)', async () => {
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' })) as Document;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['adminToken', 'basicAuth', 'dashboardSession']);
  });

  it('every route has a response schema, a body schema when it takes one, and path parameters described', async () => {
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' })) as Document;
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
          if (!(operation.parameters ?? []).some((p) => p.in === 'path' && `{${p.name}}` === name))
            problems.push(`${where}: path parameter ${name} undocumented`);
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
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' })) as Document;
    const rotate = doc.paths['/admin/organizations/{id}/credentials/rotate']?.post;
    // 401 and 429 come with admin authentication (a refused token; too many refused ones), 403 with a dashboard session
    // refused; 413 with a body; 400, 500 and 503 with every route (docs/reference.md, "Declared statuses").
    expect(Object.keys(rotate?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '410', '413', '429', '500', '503']);
  });

  it('serves the interactive reference at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect([200, 302]).toContain(response.statusCode);
    const page = response.statusCode === 302 ? await t.app.inject({ method: 'GET', url: String(response.headers.location) }) : response;
    expect(page.body).toMatch(/swagger/i);
  });

  it('serves under /versioned only routes of the spec, of the objects docs/objects.md cites, or listed in docs/reference.md', async () => {
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' })) as Document;
    const spec = (
      await Promise.all(
        ['access-connections-notifications.md', 'accounting-resources.md'].map((name) =>
          readFile(new URL(`../../../shared/spec/${name}`, import.meta.url), 'utf8'),
        ),
      )
    ).join('\n');
    // Routes docs/reference.md names in backticks, `{a,b}` standing for each alternative.
    const expand = (text: string): string[] => {
      const group = /\{([^{}]*,[^{}]*)\}/.exec(text);
      if (group?.[1] === undefined) return [text];
      return group[1].split(',').flatMap((choice) => expand(text.replace(group[0], choice)));
    };
    const decisions = new Set(
      [
        ...(await readFile(new URL('../../docs/reference.md', import.meta.url), 'utf8')).matchAll(/`((?:GET|POST|PUT|PATCH|DELETE) \/[^`\s]*)`/g),
      ].flatMap((m) => expand(m[1] ?? '')),
    );
    const objectPaths = new Set(Object.values(OBJECT_TYPES).flatMap((o) => [o.path, `${o.path}/:id`]));
    const unaccounted: string[] = [];
    let walked = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!path.startsWith('/versioned/')) continue;
      const route = path.slice('/versioned'.length).replace(/\{([^}]+)\}/g, ':$1');
      for (const method of Object.keys(methods)) {
        walked += 1;
        const key = `${method.toUpperCase()} ${route}`;
        const inSpec = new RegExp(`${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z_/])`).test(spec);
        if (inSpec || objectPaths.has(route) || decisions.has(key)) continue;
        unaccounted.push(key);
      }
    }
    expect(walked).toBeGreaterThan(60);
    expect(unaccounted).toEqual([]);
  });
});
