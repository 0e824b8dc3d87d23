/**
 * Every documented /versioned route, called by another organisation: with its
 * own credentials and connection but the first organisation's ids, and with the
 * first organisation's connection token. Never a success, never a byte of the
 * first organisation's data, and nothing of it changed or queued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OBJECT_TYPES } from '../../src/model/object-types.ts';
import type { CreatedOrganization } from '../../src/tenants/organizations.ts';
import { clientHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { documentedRoutes, pathWith, type Route } from '../support/routes.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../support/sandbox-connection.ts';

let t: TestApp;
let routes: Route[];
let owner: SyncedConnection;
let intruderOrg: CreatedOrganization;
let intruder: SyncedConnection;
/** The owner's record ids by object type. */
const ownerIds = new Map<string, string>();
let ownerSnapshot = '';

async function snapshot(connectionId: string): Promise<string> {
  const result = await t.db.pool.query<{ digest: string }>(
    `SELECT md5(string_agg(id || ':' || content_hash || ':' || coalesce(deleted_at::text, ''), ',' ORDER BY id)) AS digest FROM records WHERE connection_id = $1`,
    [connectionId],
  );
  const jobs = await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM write_jobs WHERE connection_id = $1', [connectionId]);
  return `${result.rows[0]?.digest ?? ''}/${jobs.rows[0]?.n ?? ''}`;
}

beforeAll(async () => {
  // The connection cache on, as in production: what one organisation looked up is never answered to another.
  t = await startTestApp({ config: { rateLimit: { limit: 1_000_000, windowSeconds: 10 }, connectionCacheSeconds: 60 }, writeSyncWaitMs: 200 });
  owner = await syncedSandboxConnection(t, 'user_owner_size_40');
  intruderOrg = await t.newOrg('Intruder');
  intruder = await syncedSandboxConnection(t, 'user_intruder_size_40', intruderOrg);
  const records = await t.db.pool.query<{ object_type: string; id: string }>(
    'SELECT DISTINCT ON (object_type) object_type, id FROM records WHERE connection_id = $1 ORDER BY object_type, id',
    [owner.connection.id],
  );
  for (const row of records.rows) ownerIds.set(row.object_type, row.id);
  ownerSnapshot = await snapshot(owner.connection.id);
  routes = (await documentedRoutes(t)).filter((r) => r.path.startsWith('/versioned/'));
}, 120_000);
afterAll(async () => {
  await t.close();
});

/** The owner's id that fits a path: its connection for connection routes, else a record of the path's object type. */
function ownerIdFor(route: Route): string {
  if (route.path.includes('/connections/') || route.path.includes('/jobs/')) return owner.connection.id;
  const type = Object.entries(OBJECT_TYPES)
    .filter(([, names]) => route.path.startsWith(`/versioned${names.path}`))
    .sort(([, a], [, b]) => b.path.length - a.path.length)[0]?.[0];
  return (type === undefined ? undefined : ownerIds.get(type)) ?? [...ownerIds.values()][0] ?? owner.connection.id;
}

/** Owner ids in a body that were not in the request: leaked data. */
function leakedIds(body: string, requested: string): string[] {
  return [owner.connection.id, owner.token, ...ownerIds.values()].filter((id) => body.includes(id) && !requested.includes(id));
}

interface Call {
  route: Route;
  url: string;
  status: number;
  leaked: string[];
}

async function call(route: Route, headers: Record<string, string>, token: string): Promise<Call> {
  const path = pathWith(
    route.path,
    route.pathParams.map(() => ownerIdFor(route)),
  );
  const url = `${path}?access_token=${encodeURIComponent(token)}`;
  const withBody = route.method !== 'GET' && route.method !== 'DELETE';
  const response = await t.app.inject({
    method: route.method,
    url,
    headers: { ...headers, ...(withBody ? { 'content-type': 'application/json' } : {}) },
    ...(withBody
      ? { payload: JSON.stringify({ vendor_id: ownerIds.get('vendor'), account_id: ownerIds.get('account'), customer_id: ownerIds.get('customer') }) }
      : {}),
  });
  return { route, url, status: response.statusCode, leaked: leakedIds(response.body, url) };
}

const describeCall = (c: Call): string =>
  `${c.route.method} ${c.route.path} → ${c.status}${c.leaked.length > 0 ? ` leaked ${c.leaked.join(',')}` : ''}`;

/** Each walk calls every route (over 200) in turn: 37 s on a machine loaded by other work, past the default 30 s. */
const ROUTE_WALK_TIMEOUT_MS = 120_000;

describe('another organisation calling every /versioned route', () => {
  it(
    "with its own credentials and connection but the owner's ids: never a success, never the owner's data",
    async () => {
      const calls: Call[] = [];
      for (const route of routes) calls.push(await call(route, clientHeaders(intruderOrg), intruder.token));
      expect(calls.length).toBeGreaterThan(40);
      // Routes without ids act on the intruder's own connection; they may succeed, but must not show the owner's data.
      const bad = calls.filter((c) => c.leaked.length > 0 || (c.route.pathParams.length > 0 && c.status < 400));
      expect(bad.map(describeCall)).toEqual([]);
      expect(calls.filter((c) => c.route.pathParams.length > 0).every((c) => [400, 401, 404, 410].includes(c.status))).toBe(true);
    },
    ROUTE_WALK_TIMEOUT_MS,
  );

  it(
    "with the owner's connection token: refused (401) on every route that takes one",
    async () => {
      const calls: Call[] = [];
      for (const route of routes) calls.push(await call(route, clientHeaders(intruderOrg), owner.token));
      // Organisation-level routes (GET /connections) take no connection token: they answer for the intruder's own organisation.
      // The request is validated against its schema before the token is looked up, so a body or query that is not the
      // schema's answers 400 (the caller learns only that its own input is wrong); valid requests meet the token check: 401.
      const takesToken = (c: Call): boolean => c.route.queryNames.includes('access_token');
      const refused = (c: Call): boolean => c.status === 401 || c.status === 400;
      const bad = calls.filter((c) => c.leaked.length > 0 || c.status >= 500 || (takesToken(c) && !refused(c)));
      expect(bad.map(describeCall)).toEqual([]);
      expect(calls.filter(takesToken).length).toBeGreaterThan(calls.length / 2);
      const reads = calls.filter((c) => takesToken(c) && (c.route.method === 'GET' || c.route.method === 'DELETE'));
      expect(reads.filter((c) => c.status === 401).length).toBeGreaterThan(reads.length * 0.9);
    },
    ROUTE_WALK_TIMEOUT_MS,
  );

  it("left the owner's stored records unchanged and queued no write on its connection", async () => {
    expect(await snapshot(owner.connection.id)).toBe(ownerSnapshot);
  });
});
