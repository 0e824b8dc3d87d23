/**
 * Bad input to every documented route, generated with fast-check from the
 * service's own OpenAPI document: malformed and missing headers, bodies that
 * are not JSON or not the schema, random filters, cursors, limits and ids.
 * Whatever arrives, the answer comes within seconds, is never a 5xx, and every
 * error is the spec's error body with a catalogued code and its status.
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/errors/catalogue.ts';
import { clientHeaders, json, startTestApp, type TestApp } from '../support/app.ts';
import { syncedSandboxConnection } from '../support/sandbox-connection.ts';
import { documentedRoutes, pathWith, type Route } from '../support/routes.ts';

let t: TestApp;
let routes: Route[];
/** Real values of this organisation, so generated requests reach deeper than the first 404. */
let real: { token: string; connectionId: string; recordIds: string[] };

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 1_000_000, windowSeconds: 10 } }, writeSyncWaitMs: 200 });
  const synced = await syncedSandboxConnection(t, 'user_badinput_size_40');
  const records = await t.db.pool.query<{ id: string }>('SELECT id FROM records WHERE connection_id = $1 ORDER BY id LIMIT 40', [synced.connection.id]);
  real = { token: synced.token, connectionId: synced.connection.id, recordIds: records.rows.map((r) => r.id) };
  routes = await documentedRoutes(t);
}, 120_000);
afterAll(async () => { await t.close(); });

const RUNS_PER_ROUTE = 60;
const ANSWER_WITHIN_MS = 10_000;
/** Fixed so a failure reproduces; FC_SEED=<n> explores other inputs. */
const SEED = Number(process.env.FC_SEED ?? 20261123);

const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '%', '%00', '..%2F..', '\u0000', 'null', 'undefined', '-1', '0', '1e309', 'NaN', '9'.repeat(40),
    '{"a":', '[]', 'x'.repeat(5000), '😀', 'SELECT 1;--', '<script>', 'a,b,c', 'ZXlKcGJtUmxlQ0k2ZlE9PQ'),
);
const idLike = (): fc.Arbitrary<string> => fc.oneof(fc.uuid(), junk, fc.constantFrom(real.connectionId, ...real.recordIds));

/** Mostly well-formed headers (so bodies, queries and ids get past authentication), sometimes broken ones. */
const headerSets = (route: Route): fc.Arbitrary<Record<string, string>> => fc.oneof(
  { weight: 3, arbitrary: fc.constant<Record<string, string>>(route.auth === 'admin'
    ? { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' }
    : { ...clientHeaders(t.org), 'content-type': 'application/json' }) },
  { weight: 2, arbitrary: brokenHeaders() },
);

const brokenHeaders = (): fc.Arbitrary<Record<string, string>> => fc.record({
  authorization: fc.oneof(
    fc.constant(clientHeaders(t.org).authorization ?? ''), fc.constant(`Bearer ${t.adminToken}`),
    junk.map((s) => `Basic ${Buffer.from(s).toString('base64')}`), junk.map((s) => `Bearer ${s}`), junk),
  'x-service-version': fc.oneof(fc.constant('2024-08-31'), junk, fc.constant('1999-01-01')),
  'content-type': fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1'),
}, { requiredKeys: [] });

const bodies = fc.oneof(
  fc.json({ maxDepth: 4 }),
  junk,
  fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }).map((o) => JSON.stringify(o)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
);

function queryFor(route: Route): fc.Arbitrary<Record<string, string>> {
  const names = [...route.queryNames, 'access_token', 'cursor', 'limit', 'filter', 'sort', 'unknown_param'];
  const value = fc.oneof(junk, fc.constant(real.token), fc.integer().map(String), fc.constantFrom('status = "OPEN"', 'total_amount >', 'a=b AND', '(((', 'id in ()'));
  // The connection's own token most of the time, so the other parameters are what gets judged.
  const token = fc.oneof({ weight: 4, arbitrary: fc.constant(real.token) }, { weight: 1, arbitrary: junk });
  return fc.tuple(fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 5 }), fc.option(token, { nil: undefined, freq: 6 }))
    .map(([query, accessToken]) => (accessToken === undefined ? query : { ...query, access_token: accessToken }));
}

interface Attempt { method: string; url: string; headers: Record<string, string>; payload?: string }

function requestFor(route: Route): fc.Arbitrary<Attempt> {
  return fc.record({
    params: fc.array(idLike(), { minLength: route.pathParams.length, maxLength: route.pathParams.length }),
    query: queryFor(route),
    headers: headerSets(route),
    body: fc.option(bodies, { nil: undefined }),
  }).map(({ params, query, headers, body }) => {
    const search = new URLSearchParams(query).toString();
    return {
      method: route.method, headers, url: `${pathWith(route.path, params)}${search === '' ? '' : `?${search}`}`,
      ...(body === undefined || route.method === 'GET' ? {} : { payload: body }),
    };
  });
}

async function send(attempt: Attempt): Promise<LightMyRequestResponse> {
  const timer = new Promise<never>((_resolve, reject) => {
    setTimeout(() => { reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)); }, ANSWER_WITHIN_MS).unref();
  });
  return Promise.race([t.app.inject({ method: attempt.method as 'GET', url: attempt.url, headers: attempt.headers, ...(attempt.payload === undefined ? {} : { payload: attempt.payload }) }), timer]);
}

/** Problems with an answer: a 5xx, or an error that is not the spec's error body with its catalogued status. */
function problemsOf(response: LightMyRequestResponse): string[] {
  if (response.statusCode >= 500) return [`${response.statusCode}: ${response.body.slice(0, 300)}`];
  if (response.statusCode < 400) return [];
  let body: Record<string, unknown>;
  try {
    body = json(response);
  } catch {
    return [`${response.statusCode} without a JSON body: ${response.body.slice(0, 200)}`];
  }
  const code = body.error_code;
  if (typeof body.error_type !== 'string' || typeof code !== 'string' || typeof body.error_message !== 'string') return [`not an error body: ${response.body.slice(0, 200)}`];
  if (!Object.hasOwn(ERROR_CATALOGUE, code)) return [`uncatalogued error_code ${code}`];
  const entry = ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE];
  if (entry.status !== response.statusCode) return [`${code} answered ${response.statusCode}, catalogue says ${entry.status}`];
  if (entry.type !== body.error_type) return [`${code} has error_type ${body.error_type}, catalogue says ${entry.type}`];
  return [];
}

describe('bad input to every documented route', () => {
  it('answers router failures (an over-long id, broken percent-encoding) with the spec error body', async () => {
    for (const url of [`/versioned/accounting/bills/${'x'.repeat(300)}`, '/versioned/accounting/bills/%E0%A4%A', `/admin/organizations/${'9'.repeat(200)}`]) {
      const response = await t.app.inject({ method: 'GET', url, headers: clientHeaders(t.org) });
      expect(response.statusCode, url).toBe(400);
      expect(json(response), url).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: 'VALIDATION_ERROR' });
      expect(problemsOf(response)).toEqual([]);
    }
  });

  it('covers the routes of the OpenAPI document', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.some((r) => r.path === '/versioned/accounting/bills' && r.method === 'POST')).toBe(true);
  });

  it('never answers 5xx, never hangs, always answers errors with the spec error body', async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const route of routes) {
      await fc.assert(fc.asyncProperty(requestFor(route), async (attempt) => {
        const response = await send(attempt);
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const problems = problemsOf(response);
        if (problems.length > 0) failures.push(`${attempt.method} ${attempt.url.slice(0, 200)}: ${problems.join('; ')}`);
        return problems.length === 0;
      }), { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true }).catch(() => undefined);
    }
    process.stdout.write(`bad-input statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}\n`);
    expect(failures).toEqual([]);
    // The inputs reached past authentication into validation and handlers, not only the 401 at the door.
    const count = (status: number): number => statuses.get(status) ?? 0;
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(routes.length * RUNS_PER_ROUTE);
    expect(count(400) + count(404) + count(410)).toBeGreaterThan(total / 4);
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
  }, 600_000);
});
