/**
 * Bad input to every documented route, generated with fast-check from the
 * service's own OpenAPI document: malformed and missing headers, bodies that
 * are not JSON or not the schema, random filters, cursors, limits and ids;
 * text with NUL bytes and lone UTF-16 surrogates in paths, query strings,
 * headers and bodies; huge, negative and non-finite numbers (`1e309` as raw
 * JSON); timestamps beyond what PostgreSQL holds. Whatever arrives, the
 * answer comes within seconds, is never a 5xx, and every error is the spec's
 * error body with a catalogued code and its status.
 *
 * CI runs a fixed seed. Before a release, run it longer and with other seeds:
 *   FUZZ_RUNS=1000 FUZZ_SEED=$RANDOM npx vitest run test/edge/bad-input.test.ts
 * (FUZZ_RUNS is the number of requests per route, default 60; a failure
 * prints the seed, and the same FUZZ_SEED reproduces it.)
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/errors/catalogue.ts';
import { clientHeaders, json, startTestApp, type TestApp } from '../support/app.ts';
import { syncedSandboxConnection } from '../support/sandbox-connection.ts';
import { documentedRoutes, type Route } from '../support/routes.ts';

let t: TestApp;
let routes: Route[];
/** Real values of this organisation, so generated requests reach deeper than the first 404. */
let real: { token: string; connectionId: string; recordIds: string[] };

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 1_000_000, windowSeconds: 10 } }, writeSyncWaitMs: 200 });
  const synced = await syncedSandboxConnection(t, 'user_badinput_size_40');
  const records = await t.db.pool.query<{ id: string }>('SELECT id FROM records WHERE connection_id = $1 ORDER BY id LIMIT 40', [
    synced.connection.id,
  ]);
  real = { token: synced.token, connectionId: synced.connection.id, recordIds: records.rows.map((r) => r.id) };
  routes = await documentedRoutes(t);
}, 120_000);
afterAll(async () => {
  await t.close();
});

/** Requests per route; FUZZ_RUNS raises it for a longer run before a release. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 60);
const ANSWER_WITHIN_MS = 10_000;
/** Fixed so a failure reproduces; FUZZ_SEED=<n> (or FC_SEED) explores other inputs. */
const SEED = Number(process.env.FUZZ_SEED ?? process.env.FC_SEED ?? 20261123);

/** Text PostgreSQL cannot store as sent: NUL bytes and lone surrogates, anywhere in a string. */
const hostileText = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800', '\u0000\u0000', '\u0001', '\u001f', '\u007f'),
    fc.string({ maxLength: 12 }),
  )
  .map(([before, bad, after]) => `${before}${bad}${after}`);

/** Numbers as text: huge, negative, non-finite, not quite numbers. */
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
  fc.constantFrom('1e309', '-1e309', '1e-400', '-0', '9'.repeat(400), '-9007199254740993', '0x10', '1_000', 'Infinity', '-Infinity', 'NaN'),
);

/** Instants out of every range: Unix ms beyond PostgreSQL and Date, negative ones, ISO dates past year 9999 or in year 0. */
const timestampText = fc.oneof(
  fc.constantFrom(
    '5804964607969825',
    '8640000000000001',
    '9223372036854775807',
    '253402300800000',
    '-1',
    '-62135596800001',
    '99999999999999999999',
    '1e400',
    '275760-09-13T00:00:00Z',
    '+275760-09-13T00:00:00.000Z',
    '10000-01-01',
    '0000-01-01',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:60Z',
    '2024-01-01T00:00:00+23:00',
    '2024-02-30',
    '2024-01-01T24:00:00Z',
  ),
  fc.bigInt({ min: 10n ** 15n, max: 10n ** 22n }).map(String),
  fc.integer({ min: 10_000, max: 999_999 }).map((year) => `${year}-01-01T00:00:00Z`),
);

/**
 * Percent-encoding that keeps what encodeURIComponent refuses: a lone
 * surrogate goes as its own three bytes (CESU-8, not UTF-8), which is what a
 * client sending one puts on the wire.
 */
function encodeHostile(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff)
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(char);
  }
  return out;
}

const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '%',
    '%00',
    '..%2F..',
    '\u0000',
    'null',
    'undefined',
    '-1',
    '0',
    '1e309',
    'NaN',
    '9'.repeat(40),
    '{"a":',
    '[]',
    'x'.repeat(5000),
    '😀',
    'SELECT 1;--',
    '<script>',
    'a,b,c',
    'ZXlKcGJtUmxlQ0k2ZlE9PQ',
  ),
);
const idLike = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.uuid(),
    junk,
    hostileText,
    numberText,
    fc.constantFrom(real.connectionId, ...real.recordIds),
    // UUID-shaped, not all of them UUIDs PostgreSQL reads.
    fc.constantFrom(
      '------------------------------------',
      `urn:uuid:${real.connectionId}`,
      `{${real.connectionId}}`,
      real.connectionId.toUpperCase(),
      real.connectionId.replaceAll('-', ''),
    ),
  );

/** Mostly well-formed headers (so bodies, queries and ids get past authentication), sometimes broken ones. */
const headerSets = (route: Route): fc.Arbitrary<Record<string, string>> => {
  const good: Record<string, string> =
    route.auth === 'admin'
      ? { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' }
      : { ...clientHeaders(t.org), 'content-type': 'application/json' };
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(good) },
    { weight: 2, arbitrary: brokenHeaders() },
    // Good credentials, and hostile text in a header the service reads (or one it does not).
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('idempotency-key', 'x-request-id', 'x-service-version', 'x-fuzz', 'user-agent'), hostileText)
        .map(([name, value]) => ({ ...good, [name]: value })),
    },
  );
};

const brokenHeaders = (): fc.Arbitrary<Record<string, string>> =>
  fc.record(
    {
      authorization: fc.oneof(
        fc.constant(clientHeaders(t.org).authorization ?? ''),
        fc.constant(`Bearer ${t.adminToken}`),
        junk.map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
        junk.map((s) => `Bearer ${s}`),
        junk,
        // Credentials with NUL bytes, control characters or bytes that are not UTF-8, around a colon.
        fc.tuple(hostileText, hostileText).map(([id, secret]) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`),
        fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => `Basic ${Buffer.from([...bytes, 0x3a, 0x78]).toString('base64')}`),
      ),
      'x-service-version': fc.oneof(fc.constant('2024-08-31'), junk, fc.constant('1999-01-01')),
      'content-type': fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
      ),
    },
    { requiredKeys: [] },
  );

/** A JSON value whose leaves may be hostile text (JSON.stringify writes lone surrogates as \\udXXX escapes, NUL as \\u0000). */
const hostileJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText,
    timestampText,
    fc.string({ maxLength: 10 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), hostileText), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Raw JSON text with a number JSON.parse cannot keep (1e309 becomes Infinity), somewhere in an object. */
const rawNumberBody = fc.tuple(fc.array(fc.string({ maxLength: 10 }), { minLength: 1, maxLength: 3 }), numberText).map(([keys, number]) => {
  const inner = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(number) ? number : '1e309';
  return keys.reduceRight((json, key) => `{${JSON.stringify(key)}:${json}}`, inner);
});

const bodies = fc.oneof(
  fc.json({ maxDepth: 4 }),
  junk,
  fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }).map((o) => JSON.stringify(o)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  hostileJson.map((value) => JSON.stringify(value)),
  rawNumberBody,
  // Nested a little deeper than any request of this API (MAX_NESTING is 64).
  fc.integer({ min: 60, max: 70 }).map((depth) => `${'{"a":'.repeat(depth)}"\\u0000"${'}'.repeat(depth)}`),
);

function queryFor(route: Route): fc.Arbitrary<Record<string, string>> {
  const names = [...route.queryNames, 'access_token', 'cursor', 'limit', 'filter', 'sort', 'unknown_param'];
  const value = fc.oneof(
    junk,
    fc.constant(real.token),
    fc.integer().map(String),
    fc.constantFrom('status = "OPEN"', 'total_amount >', 'a=b AND', '(((', 'id in ()'),
    hostileText,
    numberText,
    timestampText,
    timestampText.map((time) => `updated_at > ${time}`),
  );
  // The connection's own token most of the time, so the other parameters are what gets judged.
  const token = fc.oneof({ weight: 4, arbitrary: fc.constant(real.token) }, { weight: 1, arbitrary: junk });
  return fc
    .tuple(fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 5 }), fc.option(token, { nil: undefined, freq: 6 }))
    .map(([query, accessToken]) => (accessToken === undefined ? query : { ...query, access_token: accessToken }));
}

interface Attempt {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function requestFor(route: Route): fc.Arbitrary<Attempt> {
  return fc
    .record({
      params: fc.array(idLike(), { minLength: route.pathParams.length, maxLength: route.pathParams.length }),
      query: queryFor(route),
      headers: headerSets(route),
      body: fc.option(bodies, { nil: undefined }),
    })
    .map(({ params, query, headers, body }) => {
      // Encoded by hand: URLSearchParams and encodeURIComponent would replace or refuse lone surrogates.
      const search = Object.entries(query)
        .map(([name, value]) => `${encodeHostile(name)}=${encodeHostile(value)}`)
        .join('&');
      let i = 0;
      const path = route.path.replace(/\{[^}]+\}/g, () => encodeHostile(params[i++] ?? ''));
      return {
        method: route.method,
        headers,
        url: `${path}${search === '' ? '' : `?${search}`}`,
        ...(body === undefined || route.method === 'GET' ? {} : { payload: body }),
      };
    });
}

async function send(attempt: Attempt): Promise<LightMyRequestResponse> {
  const timer = new Promise<never>((_resolve, reject) => {
    setTimeout(() => {
      reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`));
    }, ANSWER_WITHIN_MS).unref();
  });
  return Promise.race([
    t.app.inject({
      method: attempt.method as 'GET',
      url: attempt.url,
      headers: attempt.headers,
      ...(attempt.payload === undefined ? {} : { payload: attempt.payload }),
    }),
    timer,
  ]);
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
  if (typeof body.error_type !== 'string' || typeof code !== 'string' || typeof body.error_message !== 'string')
    return [`not an error body: ${response.body.slice(0, 200)}`];
  if (!Object.hasOwn(ERROR_CATALOGUE, code)) return [`uncatalogued error_code ${code}`];
  const entry = ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE];
  if (entry.status !== response.statusCode) return [`${code} answered ${response.statusCode}, catalogue says ${entry.status}`];
  if (entry.type !== body.error_type) return [`${code} has error_type ${body.error_type}, catalogue says ${entry.type}`];
  return [];
}

describe('bad input to every documented route', () => {
  it('answers router failures (an over-long id, broken percent-encoding) with the spec error body', async () => {
    for (const url of [
      `/versioned/accounting/bills/${'x'.repeat(300)}`,
      '/versioned/accounting/bills/%E0%A4%A',
      `/admin/organizations/${'9'.repeat(200)}`,
    ]) {
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
      await fc
        .assert(
          fc.asyncProperty(requestFor(route), async (attempt) => {
            const response = await send(attempt);
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            const problems = problemsOf(response);
            if (problems.length > 0) failures.push(`${attempt.method} ${attempt.url.slice(0, 200)}: ${problems.join('; ')}`);
            return problems.length === 0;
          }),
          { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
        )
        .catch(() => undefined);
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
