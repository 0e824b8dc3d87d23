/**
 * The review's reproductions of issue 19 item 1, each of which answered 500
 * (or silently stored something else): NUL bytes and lone surrogates in every
 * place a client writes text, timestamps beyond what PostgreSQL holds,
 * cursors PostgreSQL cannot read, malformed multipart bodies. Each now
 * answers 400 (401 for credentials) with the spec's error body naming the
 * field, and changes nothing.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, startTestApp, VERSION, type TestApp } from '../support/app.ts';
import { storedWhere, syncedSandboxConnection } from '../support/sandbox-connection.ts';

let t: TestApp;
let token = '';
let connectionId = '';
const ids = { vendor: '', expense: '', journal: '' };
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startTestApp({ writeSyncWaitMs: 200 });
  const synced = await syncedSandboxConnection(t, 'user_unstorable_size_40');
  token = synced.token;
  connectionId = synced.connection.id;
  ids.vendor = (await storedWhere(t, connectionId, 'vendor', (v) => v.status === 'active')).id;
  ids.expense = (await storedWhere(t, connectionId, 'account', (a) => a.account_type === 'expense')).id;
  ids.journal = (await storedWhere(t, connectionId, 'journal_entry', () => true)).id;
}, 120_000);
afterAll(async () => {
  await t.close();
});

const client = (): Record<string, string> => ({ ...clientHeaders(t.org), 'content-type': 'application/json' });
const admin = (): Record<string, string> => ({ authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' });

/** A bill body as raw JSON text, with `memo` written exactly as given (escapes included). */
const billWithMemo = (memoJson: string): string =>
  `{"bill":{"vendor_id":"${ids.vendor}","issue_date":"${today}","memo":${memoJson},"line_items":[{"account_id":"${ids.expense}","total_amount":5,"description":"x"}]}}`;

function expectRefused(response: LightMyRequestResponse, field: string, location: string, code = 'VALIDATION_ERROR'): string {
  expect(response.statusCode, response.body).toBe(400);
  const body = errorBody(response);
  expect(body).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: code });
  expect(body.error_metadata).toMatchObject({ field, location });
  expect(response.headers['x-request-id']).toBeTypeOf('string');
  // The answer itself carries no NUL or lone surrogate.
  expect(response.body.includes('\u0000')).toBe(false);
  expect(response.body.isWellFormed()).toBe(true);
  return body.error_message;
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const result = await t.db.pool.query<{ n: string }>(sql, params);
  return Number(result.rows[0]?.n ?? 0);
}

describe('NUL bytes and lone surrogates', () => {
  it('in a path id', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/versioned/accounting/bills/a%00b?access_token=${token}`, headers: client() });
    expect(expectRefused(response, 'id', 'params')).toBe('`id` in the path contains a NUL character (\\u0000), which text cannot hold.');
  });

  it('in a query parameter', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/bills?access_token=${token}&document_number=a%00b`,
      headers: client(),
    });
    expectRefused(response, 'document_number', 'query');
  });

  it('in a write body at any depth, and nothing is queued', async () => {
    const jobsBefore = await count('SELECT count(*) AS n FROM write_jobs');
    for (const [memo, problem] of [
      ['"a\\u0000b"', 'NUL character'],
      ['"a\\ud800b"', 'lone UTF-16 surrogate'],
      ['"\\udfff"', 'lone UTF-16 surrogate'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/versioned/accounting/bills?access_token=${token}`,
        headers: client(),
        payload: billWithMemo(memo),
      });
      expect(expectRefused(response, 'bill.memo', 'body')).toContain(problem);
    }
    const deep = `{"bill":{"vendor_id":"${ids.vendor}","issue_date":"${today}","line_items":[{"account_id":"${ids.expense}","total_amount":5,"description":"ok"},{"account_id":"${ids.expense}","total_amount":5,"description":"x\\u0000"}]}}`;
    const response = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bills?access_token=${token}`,
      headers: client(),
      payload: deep,
    });
    expectRefused(response, 'bill.line_items[1].description', 'body');
    expect(await count('SELECT count(*) AS n FROM write_jobs')).toBe(jobsBefore);
  });

  it('in a field name, escaped in the answer', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bills?access_token=${token}`,
      headers: client(),
      payload: '{"bill":{"a\\u0000":1}}',
    });
    expect(expectRefused(response, 'bill.a\\u0000', 'body')).toContain('has a name that contains a NUL character');
  });

  it('a paired surrogate (an emoji) is fine', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/versioned/connections/create',
      headers: client(),
      payload: '{"name":"Books \\ud83d\\ude00"}',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((JSON.parse(response.body) as { connection: { name: string } }).connection.name).toBe('Books 😀');
  });

  it('in a connection name on create, and no connection is made', async () => {
    const before = await count('SELECT count(*) AS n FROM connections');
    for (const name of ['"a\\u0000"', '"a\\udc00"']) {
      const response = await t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: client(), payload: `{"name":${name}}` });
      expectRefused(response, 'name', 'body');
    }
    expect(await count('SELECT count(*) AS n FROM connections')).toBe(before);
  });

  it('in a connection name on PATCH, and the name is unchanged', async () => {
    const before = await t.db.pool.query<{ name: string | null }>('SELECT name FROM connections WHERE id = $1', [connectionId]);
    for (const name of ['"a\\u0000"', '"\\ud800"']) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/versioned/connections/${connectionId}`,
        headers: client(),
        payload: `{"name":${name}}`,
      });
      expectRefused(response, 'name', 'body');
    }
    const after = await t.db.pool.query<{ name: string | null }>('SELECT name FROM connections WHERE id = $1', [connectionId]);
    expect(after.rows).toEqual(before.rows);
  });

  it('in an organisation name, and no organisation is made', async () => {
    const before = await count('SELECT count(*) AS n FROM organizations');
    for (const name of ['"Acme\\u0000"', '"Acme\\ud800"']) {
      const response = await t.app.inject({ method: 'POST', url: '/admin/organizations', headers: admin(), payload: `{"name":${name}}` });
      expectRefused(response, 'name', 'body');
    }
    expect(await count('SELECT count(*) AS n FROM organizations')).toBe(before);
  });

  it('in a header value', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/bills?access_token=${token}`,
      headers: { ...client(), 'x-trace': 'a\u0000b' },
    });
    expectRefused(response, 'x-trace', 'headers');
  });

  it('in Basic credentials, unauthenticated: 401 saying they are malformed', async () => {
    for (const raw of [Buffer.from('x\u0000:y'), Buffer.from('x:y\u0000'), Buffer.from([0xed, 0xa0, 0x80, 0x3a, 0x79])]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/versioned/accounting/bills',
        headers: { authorization: `Basic ${raw.toString('base64')}`, 'x-service-version': VERSION },
      });
      expect(response.statusCode, response.body).toBe(401);
      const body = errorBody(response);
      expect(body.error_code).toBe('INVALID_CREDENTIALS');
      expect(body.error_message).toMatch(/^Malformed Basic credentials/);
    }
  });
});

describe('numbers JSON.parse cannot hold', () => {
  it('1e309 anywhere in a body is refused by name, and nothing is queued', async () => {
    const jobsBefore = await count('SELECT count(*) AS n FROM write_jobs');
    const payload = `{"bill":{"vendor_id":"${ids.vendor}","issue_date":"${today}","line_items":[{"account_id":"${ids.expense}","total_amount":1e309,"description":"x"}]}}`;
    const response = await t.app.inject({ method: 'POST', url: `/versioned/accounting/bills?access_token=${token}`, headers: client(), payload });
    expect(expectRefused(response, 'bill.line_items[0].total_amount', 'body')).toContain('must be a finite number');
    expect(await count('SELECT count(*) AS n FROM write_jobs')).toBe(jobsBefore);
  });
});

describe('timestamps beyond what PostgreSQL holds', () => {
  const beyond = ['5804964607969825', '9999999999999999', '99999999999999999999', '1e30', '253402300800000'];

  it('on data lists: updated_at_min, updated_at_max, last_synced_at_min', async () => {
    for (const name of ['updated_at_min', 'updated_at_max', 'last_synced_at_min']) {
      for (const value of [...beyond, '-1', '-99999999999999999999']) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/versioned/accounting/bills?access_token=${token}&${name}=${value}`,
          headers: client(),
        });
        expectRefused(response, name, 'query');
      }
    }
  });

  it('on the events list: last_synced_at_min', async () => {
    for (const value of [...beyond, '-5']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/versioned/events?type=object_deleted&access_token=${token}&last_synced_at_min=${value}`,
        headers: client(),
      });
      expectRefused(response, 'last_synced_at_min', 'query');
    }
  });

  it('the last instant of year 9999 is still accepted', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/bills?access_token=${token}&updated_at_max=253402300799999&last_synced_at_min=0`,
      headers: client(),
    });
    expect(list.statusCode, list.body).toBe(200);
    const events = await t.app.inject({
      method: 'GET',
      url: `/versioned/events?type=object_deleted&access_token=${token}&last_synced_at_min=253402300799999`,
      headers: client(),
    });
    expect(events.statusCode, events.body).toBe(200);
  });

  it('dates in year 0000 and offsets beyond ±15:59 (ISO syntax, not PostgreSQL)', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/balance_sheets?access_token=${token}&start_date=0000-01-01`,
      headers: client(),
    });
    expectRefused(list, 'start_date', 'query');
    await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${t.org.organization.id}/webhook`,
      headers: admin(),
      payload: { environment: 'sandbox', url: 'https://example.com/hook' },
    });
    for (const from of ['0000-06-01T00:00:00Z', '2026-01-01T00:00:00+23:00']) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/admin/organizations/${t.org.organization.id}/webhook/deliveries/replay`,
        headers: admin(),
        payload: { from, to: '2026-01-02T00:00:00Z' },
      });
      expectRefused(response, 'from', 'body');
    }
  });
});

describe('cursors PostgreSQL cannot read', () => {
  const cursor = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('a UUID-shaped id that is not a UUID, a year 0 or an impossible offset in the sort value', async () => {
    for (const bad of [
      { s: 'updated_at DESC', v: '2024-05-01 10:11:12.123456+00', id: '------------------------------------' },
      { s: 'updated_at DESC', v: '2024-05-01 10:11:12.123456+00', id: 'a0eebc999c0b4ef8bb6d6bb9bd380a11----' },
      { s: 'updated_at DESC', v: '0000-05-01 10:11:12.123456+00', id: connectionId },
      { s: 'updated_at DESC', v: '2024-05-01 10:11:12.123456+99', id: connectionId },
      { s: 'document_number ASC', v: 'a\u0000', id: connectionId },
    ]) {
      const sort = bad.s === 'document_number ASC' ? '&sort=document_number%20ASC' : '';
      const response = await t.app.inject({
        method: 'GET',
        url: `/versioned/accounting/bills?access_token=${token}${sort}&cursor=${cursor(bad)}`,
        headers: client(),
      });
      expectRefused(response, 'cursor', 'query', 'INVALID_CURSOR');
    }
  });

  it('the events cursor refuses a year 0 instant', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/versioned/events?type=object_deleted&access_token=${token}&cursor=${cursor({ t: '0000-01-01T00:00:00.000000Z', id: connectionId })}`,
      headers: client(),
    });
    expectRefused(response, 'cursor', 'query', 'INVALID_CURSOR');
  });

  it('a urn:uuid: id (ajv-formats accepts it, PostgreSQL does not)', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/admin/organizations/urn:uuid:${t.org.organization.id}/webhook`, headers: admin() });
    expectRefused(response, 'id', 'params');
  });
});

describe('malformed multipart bodies on the attachment upload', () => {
  const upload = (contentType: string, payload: string): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/journal_entries/${ids.journal}/attachments?access_token=${token}`,
      headers: { ...clientHeaders(t.org), 'content-type': contentType },
      payload,
    });

  it('each answers 400 saying what is wrong, and nothing is queued', async () => {
    const jobsBefore = await count('SELECT count(*) AS n FROM write_jobs');
    const cases: [string, string, RegExp][] = [
      [
        'multipart/form-data; boundary=zzz',
        '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello',
        /malformed \(Unexpected end of multipart data\)/,
      ],
      ['multipart/form-data', 'hello', /malformed \(Multipart: Boundary not found\)/],
      [
        'multipart/form-data; boundary=zzz',
        '--zzz\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--zzz--\r\n',
        /prototype property is not allowed/,
      ],
      [
        'multipart/form-data; boundary=zzz',
        '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/pl\u0000ain\r\n\r\nhello\r\n--zzz--\r\n',
        /Content-Type with control characters/,
      ],
    ];
    for (const [contentType, payload, message] of cases) {
      const response = await upload(contentType, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBody(response).error_message).toMatch(message);
    }
    expect(await count('SELECT count(*) AS n FROM write_jobs')).toBe(jobsBefore);
  });
});

describe('the HTML pages (link flow, SANDBOX bank-feed linking)', () => {
  it('answer an HTML 400 page, not a 500', async () => {
    for (const url of ['/link/lk_a%00b', '/link/lk_abc/SANDBOX?platform=a%00b', '/sandbox/bank-feeds/link/a%00b']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(400);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    }
    const form = await t.app.inject({
      method: 'POST',
      url: '/sandbox/bank-feeds/link/abc',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'account=a%00b',
    });
    expect(form.statusCode, form.body.slice(0, 200)).toBe(400);
  });
});
