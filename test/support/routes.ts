/** The routes of the service's own OpenAPI document, for suites that call every route. */
import { expect } from 'vitest';
import type { TestApp } from './app.ts';

export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  method: RouteMethod;
  /** As documented, with `{name}` placeholders. */
  path: string;
  pathParams: string[];
  queryNames: string[];
  /** Which credentials the route takes, from its security requirement. */
  auth: 'client' | 'admin' | 'none';
}

interface Operation {
  parameters?: { in: string; name: string }[];
  security?: Record<string, unknown>[];
}

function authOf(operation: Operation): Route['auth'] {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('adminToken')) return 'admin';
  return schemes.includes('basicAuth') ? 'client' : 'none';
}

const METHODS = new Set(['get', 'post', 'patch', 'put', 'delete']);

export async function documentedRoutes(t: TestApp): Promise<Route[]> {
  const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  const doc = JSON.parse(response.body) as { paths: Record<string, Record<string, Operation>> };
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.has(method)) continue;
      const parameters = operation.parameters ?? [];
      routes.push({
        method: method.toUpperCase() as RouteMethod,
        path,
        pathParams: (path.match(/\{[^}]+\}/g) ?? []).map((p) => p.slice(1, -1)),
        queryNames: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        auth: authOf(operation),
      });
    }
  }
  return routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** The path with its placeholders replaced, in order, by `values` (URL-encoded). */
export function pathWith(path: string, values: readonly string[]): string {
  let i = 0;
  return path.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++] ?? ''));
}
