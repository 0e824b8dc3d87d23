import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, sha256 } from '../../crypto/secrets.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import type { CreatedOrganization } from '../../tenants/organizations.ts';
import { decodeCursor, encodeCursor } from '../../http/keyset-cursor.ts';

let t: TestApp;
let org: CreatedOrganization;
const STATUSES = ['active', 'unhealthy', 'not_ready', 'needs_reauth', 'disabled'] as const;
const TOTAL = 1234;

/** Inserts connections straight into the table: ten share each creation time, so ties are broken by id. */
async function seed(organizationId: string, count: number): Promise<void> {
  const tokens = Array.from({ length: count }, () => randomToken('lpat_'));
  await t.db.pool.query(
    `INSERT INTO connections (organization_id, environment, platform, status, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext, created_at, name)
     SELECT $1::uuid, 'sandbox', 'TESTBOOKS', ($4::text[])[1 + (i % 5)], sha, cipher, sha256(convert_to('lk_seed_' || i || '_' || $1::text, 'UTF8')), cipher,
            timestamptz '2024-01-01' + make_interval(secs => (i / 10)::int), 'seed-' || i
       FROM unnest($2::bytea[], $3::bytea[]) WITH ORDINALITY AS s(sha, cipher, i)`,
    [organizationId, tokens.map((tk) => sha256(tk)), tokens.map((tk) => t.services.cipher.encrypt(tk)), STATUSES],
  );
}

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  org = await t.newOrg('Many connections');
  await seed(org.organization.id, TOTAL);
});
afterAll(async () => {
  await t.close();
});

type Page = { connections: { id: string; status: string; created_at: string; name: string }[]; next_cursor?: string | null };
const list = async (query: string, who: CreatedOrganization = org) =>
  t.app.inject({ method: 'GET', url: `/versioned/connections${query}`, headers: clientHeaders(who) });

async function traverse(query: string, limit: number): Promise<{ ids: string[]; pages: Page[] }> {
  const ids: string[] = [];
  const pages: Page[] = [];
  let cursor = '';
  for (let guard = 0; guard < 10_000; guard++) {
    const response = await list(`?limit=${limit}&cursor=${encodeURIComponent(cursor)}${query}`);
    expect(response.statusCode).toBe(200);
    const page = json(response) as Page;
    pages.push(page);
    ids.push(...page.connections.map((c) => c.id));
    if (page.next_cursor === null) return { ids, pages };
    expect(typeof page.next_cursor).toBe('string');
    cursor = page.next_cursor ?? '';
  }
  throw new Error('traversal did not end');
}

describe('GET /connections paged mode', () => {
  it('visits each of 1,234 connections exactly once with limit 7, in creation then id order', async () => {
    const { ids, pages } = await traverse('&status=any', 7);
    expect(ids).toHaveLength(TOTAL);
    expect(new Set(ids).size).toBe(TOTAL);
    expect(pages).toHaveLength(Math.ceil(TOTAL / 7));
    expect(pages.slice(0, -1).every((p) => p.connections.length === 7)).toBe(true);
    const expected = await t.db.pool.query<{ id: string }>(`SELECT id FROM connections WHERE organization_id = $1 ORDER BY created_at, id`, [
      org.organization.id,
    ]);
    expect(ids).toEqual(expected.rows.map((r) => r.id));
    expect(pages.at(-1)?.next_cursor).toBeNull();
  });

  it('applies the status filter before the limit, with the default set when omitted', async () => {
    const { ids: defaults, pages } = await traverse('', 50);
    const count = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM connections WHERE organization_id = $1 AND status IN ('active', 'not_ready', 'unhealthy')`,
      [org.organization.id],
    );
    expect(defaults).toHaveLength(count.rows[0]?.n ?? -1);
    expect(pages.flatMap((p) => p.connections).every((c) => ['active', 'not_ready', 'unhealthy'].includes(c.status))).toBe(true);
    const { pages: disabled } = await traverse('&status=disabled', 7);
    const all = disabled.flatMap((p) => p.connections);
    expect(all.length).toBeGreaterThan(200);
    expect(all.every((c) => c.status === 'disabled')).toBe(true);
    expect(disabled.slice(0, -1).every((p) => p.connections.length === 7)).toBe(true);
  });

  it('treats limit 0, an empty limit and an empty cursor as the first page of 50', async () => {
    for (const query of ['?limit=0', '?limit=', '?cursor=', '?limit=&cursor=']) {
      const page = json(await list(`${query}&status=any`)) as Page;
      expect(page.connections, query).toHaveLength(50);
      expect(typeof page.next_cursor).toBe('string');
    }
  });

  it('answers null next_cursor on an empty result', async () => {
    const empty = await t.newOrg('Empty');
    const page = json(await list('?limit=10', empty)) as Page;
    expect(page).toEqual({ connections: [], next_cursor: null });
  });

  it('answers 400 for limit 501, -1, abc and 1.5', async () => {
    for (const limit of ['501', '-1', 'abc', '1.5', '9999999']) {
      const response = await list(`?limit=${limit}`);
      expect(response.statusCode, limit).toBe(400);
      expect(errorBody(response).error_message).toMatch(/`limit` in the query string must be an integer from 1 to 500/);
    }
    expect((await list('?limit=500&status=any')).statusCode).toBe(200);
    expect((json(await list('?limit=500&status=any')) as Page).connections).toHaveLength(500);
  });

  it('answers 400 INVALID_CURSOR for malformed cursors', async () => {
    const bad = [
      'abc',
      '!!!',
      Buffer.from('{"t":1}').toString('base64url'),
      Buffer.from('not json').toString('base64url'),
      Buffer.from(JSON.stringify({ t: '2024-01-01T00:00:00.000000Z', id: 'x' })).toString('base64url'),
      Buffer.from(JSON.stringify({ t: 'yesterday', id: '00000000-0000-4000-8000-000000000000' })).toString('base64url'),
      "' OR 1=1 --",
      // Well-formed but impossible instants: Date.parse accepts them, PostgreSQL would not.
      Buffer.from(JSON.stringify({ t: '2024-02-30T00:00:00.000000Z', id: '00000000-0000-4000-8000-000000000000' })).toString('base64url'),
      Buffer.from(JSON.stringify({ t: '2024-01-01T24:00:00.000000Z', id: '00000000-0000-4000-8000-000000000000' })).toString('base64url'),
    ];
    for (const cursor of bad) {
      const response = await list(`?cursor=${encodeURIComponent(cursor)}`);
      expect(response.statusCode, cursor).toBe(400);
      expect(errorBody(response)).toMatchObject({ error_code: 'INVALID_CURSOR', error_type: 'INVALID_REQUEST' });
    }
  });

  it('round-trips cursors with microsecond precision', () => {
    const position = { createdAt: '2024-05-01T10:11:12.123456Z', id: '8f0c1a52-3b0e-4d8e-9a43-1f1c2d3e4f50' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('shows connections created during a traversal on later pages', async () => {
    const fresh = await t.newOrg('Growing');
    await seed(fresh.organization.id, 20);
    const first = json(await list('?limit=15&status=any', fresh)) as Page;
    await t.db.pool.query(
      `INSERT INTO connections (organization_id, environment, status, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
       VALUES ($1, 'sandbox', 'active', $2, $3, sha256('lk_late'::bytea), $3)`,
      [fresh.organization.id, sha256('lpat_late'), t.services.cipher.encrypt('lpat_late')],
    );
    const second = json(await list(`?limit=15&status=any&cursor=${first.next_cursor ?? ''}`, fresh)) as Page;
    expect(second.connections).toHaveLength(6);
    expect(second.next_cursor).toBeNull();
  });
});

describe('GET /connections unpaged (deprecated)', () => {
  it('answers without next_cursor, newest first', async () => {
    const page = json(await list('')) as Page;
    expect('next_cursor' in page).toBe(false);
    expect(page.connections.length).toBeGreaterThan(700);
    const times = page.connections.map((c) => Date.parse(c.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("never lists another organisation's connections", async () => {
    const page = json(await list('?status=any', t.org)) as Page;
    expect(page.connections.some((c) => c.name.startsWith('seed-'))).toBe(false);
  });
});
