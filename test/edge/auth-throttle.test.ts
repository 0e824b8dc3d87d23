/**
 * Failed authentication is throttled per source address and per target
 * (issue 19, item 7): /admin tokens, /versioned Basic client credentials, the
 * link pages and their credential form. Over a limit the answer to a wrong
 * credential is 429 with Retry-After (the spec's error body on the API, a page
 * on the link flow); the right one still passes where it is ours to check
 * (issue 32), while the link flow is paused unread. Counts are
 * shared in PostgreSQL, so a second process (a second app on the same
 * database) sees them; successes write nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Connector } from '../../src/platforms/connector.ts';
import { PlatformError } from '../../src/platforms/errors.ts';
import { getConnector, registerConnector } from '../../src/platforms/registry.ts';
import { basicAuth, clientHeaders, errorBody, json, startTestApp, VERSION, type TestApp } from '../support/app.ts';
import { probeEndpoints } from '../support/probe-endpoints.ts';

const PER_ADDRESS = 5;
const PER_TARGET = 8;
const LIMITS = { perAddress: PER_ADDRESS, perTarget: PER_TARGET, windowSeconds: 60, webhookRefusalDelayMs: 0 };

/** A credential platform that counts how often it is asked: a blocked form must not reach it. */
const PLATFORM = 'THROTTLEBOOKS';
let identifyCalls = 0;
const connector: Connector = {
  id: PLATFORM,
  name: 'Throttle Books',
  kind: 'accounting',
  auth: {
    type: 'credentials',
    fields: [
      { field: 'basic_username', label: 'Username', required: true, secret: false },
      { field: 'basic_password', label: 'Password', required: true, secret: true },
    ],
  },
  identify(ctx) {
    identifyCalls += 1;
    if (ctx.credentials.basic_password !== 'secret')
      return Promise.reject(new PlatformError({ kind: 'unauthorized', httpStatus: 401, message: 'bad login' }));
    return Promise.resolve({ storeUniqueId: `acct-${ctx.credentials.basic_username ?? ''}`, storeName: null });
  },
  objects: {
    account: {
      capabilities: {
        read: true,
        incremental: 'none',
        deletions: 'none',
        filter: false,
        fetchByPlatformId: false,
        create: false,
        update: false,
        delete: false,
      },
      handler: { read: () => Promise.resolve({ records: [], nextPageToken: null }), map: (record) => ({ platform_id: record.platformId }) },
    },
  },
  limits: { requestsPerMinute: null, concurrentRequests: null },
};

let t: TestApp;
const extraVersionedEndpoints = probeEndpoints({ executions: 0 });
beforeAll(async () => {
  if (getConnector(PLATFORM) === undefined) registerConnector(connector);
  t = await startTestApp({ config: { authFailures: LIMITS }, extraVersionedEndpoints });
});
afterAll(async () => {
  await t.close();
});
// Every test starts from no failures (the admin token is one target for all of them); addresses differ per test.
beforeEach(async () => {
  await t.db.pool.query('DELETE FROM auth_failures');
});

const WRONG_ADMIN = 'Bearer wrong-admin-token-0000';

function adminGet(app: FastifyInstance, address: string, authorization: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: '/admin/organizations', remoteAddress: address, headers: { authorization } });
}

function whoami(app: FastifyInstance, address: string, authorization: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url: '/versioned/_probe/whoami',
    remoteAddress: address,
    headers: { authorization, 'x-service-version': VERSION },
  });
}

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function expectThrottled(response: LightMyRequestResponse, by: 'address' | 'credentials'): void {
  expect(response.statusCode, response.body).toBe(429);
  const body = errorBody(response);
  expect(body.error_code).toBe('RATE_LIMIT_EXCEEDED');
  expect(body.error_type).toBe('RATE_LIMIT');
  expect(body.error_message).toContain(by === 'address' ? 'from this address' : 'for these credentials');
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers['x-request-id']).toBeTruthy();
}

/** Failures counted in all buckets. */
async function failuresCounted(): Promise<number> {
  const result = await t.db.pool.query<{ n: number }>('SELECT coalesce(sum(failures), 0)::int AS n FROM auth_failures');
  return result.rows[0]?.n ?? -1;
}

async function failuresStored(): Promise<number> {
  const result = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM auth_failures');
  return result.rows[0]?.n ?? -1;
}

describe('/admin', () => {
  it(`after ${PER_ADDRESS} wrong tokens from one address: wrong ones get 429 there, the right token still passes; others unaffected`, async () => {
    for (let i = 0; i < PER_ADDRESS; i++) expect((await adminGet(t.app, '10.1.0.1', WRONG_ADMIN)).statusCode).toBe(401);
    expectThrottled(await adminGet(t.app, '10.1.0.1', WRONG_ADMIN), 'address');
    // Issue 32: one misconfigured client behind a NAT must not lock out the others there.
    expect((await adminGet(t.app, '10.1.0.1', `Bearer ${t.adminToken}`)).statusCode).toBe(200);
    expect((await adminGet(t.app, '10.1.0.2', `Bearer ${t.adminToken}`)).statusCode).toBe(200);
  });

  it('a missing token is not a guess and is not counted', async () => {
    for (let i = 0; i < PER_ADDRESS + 2; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/admin/organizations', remoteAddress: '10.1.1.1' })).statusCode).toBe(401);
    }
    expect(await failuresStored()).toBe(0);
    expect((await adminGet(t.app, '10.1.1.1', `Bearer ${t.adminToken}`)).statusCode).toBe(200);
  });

  it(`after ${PER_TARGET} wrong tokens from many addresses: further wrong tokens get 429, the right one still works`, async () => {
    const app = await buildApp(t.services, { logger: false });
    try {
      for (let i = 0; i < PER_TARGET; i++) expect((await adminGet(app, `10.1.2.${i + 1}`, WRONG_ADMIN)).statusCode).toBe(401);
      expectThrottled(await adminGet(app, '10.1.2.200', WRONG_ADMIN), 'credentials');
      // Nobody can lock the operator out by sending wrong tokens.
      expect((await adminGet(app, '10.1.2.201', `Bearer ${t.adminToken}`)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('the counts are shared between processes: a second process refuses after its first failure of a spent window', async () => {
    const second = await buildApp(t.services, { logger: false });
    try {
      for (let i = 0; i < PER_ADDRESS; i++) expect((await adminGet(t.app, '10.1.3.1', WRONG_ADMIN)).statusCode).toBe(401);
      // One more guess reaches the second process's check (it has not learnt the block yet): refused, counted, and it learns.
      expect((await adminGet(second, '10.1.3.1', WRONG_ADMIN)).statusCode).toBe(401);
      expectThrottled(await adminGet(second, '10.1.3.1', WRONG_ADMIN), 'address');
    } finally {
      await second.close();
    }
  });

  it('the window ends: the address may try again', async () => {
    const app = await buildApp(
      {
        ...t.services,
        config: { ...t.services.config, authFailures: { perAddress: 2, perTarget: 100, windowSeconds: 1, webhookRefusalDelayMs: 0 } },
      },
      { logger: false },
    );
    try {
      for (let i = 0; i < 2; i++) expect((await adminGet(app, '10.1.4.1', WRONG_ADMIN)).statusCode).toBe(401);
      expectThrottled(await adminGet(app, '10.1.4.1', WRONG_ADMIN), 'address');
      await sleep(1100);
      expect((await adminGet(app, '10.1.4.1', WRONG_ADMIN)).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  const viaProxy = (app: FastifyInstance, client: string, authorization: string): Promise<LightMyRequestResponse> =>
    app.inject({ method: 'GET', url: '/admin/organizations', remoteAddress: '10.9.0.1', headers: { authorization, 'x-forwarded-for': client } });

  it("counts each client by the address the trusted proxy forwards: one client's failures do not block the others", async () => {
    const app = await buildApp({ ...t.services, config: { ...t.services.config, trustProxy: ['10.9.0.1'] } }, { logger: false });
    try {
      for (let i = 0; i < PER_ADDRESS; i++) expect((await viaProxy(app, '203.0.113.5', WRONG_ADMIN)).statusCode).toBe(401);
      expectThrottled(await viaProxy(app, '203.0.113.5', WRONG_ADMIN), 'address');
      expect((await viaProxy(app, '203.0.113.6', WRONG_ADMIN)).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('without TRUST_PROXY the header is ignored: a client cannot spread its failures over made-up addresses', async () => {
    for (let i = 0; i < PER_ADDRESS; i++) expect((await viaProxy(t.app, `198.51.100.${i + 1}`, WRONG_ADMIN)).statusCode).toBe(401);
    expectThrottled(await viaProxy(t.app, '198.51.100.200', WRONG_ADMIN), 'address');
  });
});

describe('/versioned client credentials', () => {
  it(`after ${PER_ADDRESS} wrong secrets from one address: 429 for wrong ones, right credentials still pass; successes write nothing`, async () => {
    const record = vi.spyOn(t.app.authThrottle, 'recordFailure');
    for (let i = 0; i < 20; i++) expect((await whoami(t.app, '10.2.0.1', basicAuth(t.org))).statusCode).toBe(200);
    expect(record).not.toHaveBeenCalled();
    expect(await failuresStored()).toBe(0);
    record.mockRestore();

    const { client_id } = t.org.credentials.sandbox;
    for (let i = 0; i < PER_ADDRESS; i++) expect((await whoami(t.app, '10.2.0.1', basic(client_id, `lpsk_wrong_${i}`))).statusCode).toBe(401);
    expectThrottled(await whoami(t.app, '10.2.0.1', basic(client_id, 'lpsk_wrong_again')), 'address');
    // Issue 32: another client behind the same address, with its right credentials, is not locked out.
    expect((await whoami(t.app, '10.2.0.1', basicAuth(t.org))).statusCode).toBe(200);
    // Malformed credentials from a blocked address get 429 too, and a flood of them writes nothing more.
    const counted = await failuresCounted();
    expectThrottled(await whoami(t.app, '10.2.0.1', 'Basic !!!'), 'address');
    expect(await failuresCounted()).toBe(counted);
    expect((await whoami(t.app, '10.2.0.2', basicAuth(t.org))).statusCode).toBe(200);
  });

  it('malformed credentials count against the address; IPv6 addresses count per /64', async () => {
    for (let i = 0; i < PER_ADDRESS; i++) {
      expect((await whoami(t.app, `2001:db8:1:1::${i + 1}`, `Basic ${Buffer.from('no-colon').toString('base64')}`)).statusCode).toBe(401);
    }
    expectThrottled(await whoami(t.app, '2001:db8:1:1:ffff::9', 'Basic !!!'), 'address');
    expect((await whoami(t.app, '2001:db8:1:1:ffff::9', basicAuth(t.org))).statusCode).toBe(200);
    expect((await whoami(t.app, '2001:db8:1:2::1', basicAuth(t.org))).statusCode).toBe(200);
  });

  it(`after ${PER_TARGET} wrong secrets for one client_id from many addresses: wrong ones get 429, the right one and other client_ids work`, async () => {
    const org = await t.newOrg('Guessed');
    const { client_id } = org.credentials.sandbox;
    for (let i = 0; i < PER_TARGET; i++) expect((await whoami(t.app, `10.2.2.${i + 1}`, basic(client_id, 'lpsk_guess'))).statusCode).toBe(401);
    expectThrottled(await whoami(t.app, '10.2.2.200', basic(client_id, 'lpsk_guess_again')), 'credentials');
    // The organisation itself is not locked out of its own service by someone else's wrong secrets.
    expect((await whoami(t.app, '10.2.2.201', basicAuth(org))).statusCode).toBe(200);
    expect((await whoami(t.app, '10.2.2.200', basicAuth(org, 'production'))).statusCode).toBe(200);
    expect((await whoami(t.app, '10.2.2.200', basicAuth(t.org))).statusCode).toBe(200);
  });
});

describe('link pages and their credential form', () => {
  async function newLink(): Promise<{ id: string; path: string }> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/versioned/connections/create',
      remoteAddress: '10.9.9.9',
      headers: clientHeaders(t.org),
      payload: { platform: PLATFORM },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { connection } = json(response) as { connection: { id: string; link_url: string } };
    return { id: connection.id, path: new URL(connection.link_url).pathname };
  }

  /** Opens the form from `address` and posts it with this password, as a browser there would. */
  async function signIn(address: string, path: string, password: string): Promise<LightMyRequestResponse> {
    const form = await t.app.inject({ method: 'GET', url: `${path}/${PLATFORM}`, remoteAddress: address });
    if (form.statusCode !== 200) return form;
    const cookie = String(form.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
    return t.app.inject({
      method: 'POST',
      url: `${path}/${PLATFORM}`,
      remoteAddress: address,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      payload: new URLSearchParams({ csrf, basic_username: 'ann', basic_password: password }).toString(),
    });
  }

  function expectPaused(response: LightMyRequestResponse): void {
    expect(response.statusCode, response.body).toBe(429);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(response.body).toContain('Too many attempts');
  }

  it(`after ${PER_ADDRESS} unknown link addresses from one address: every link page is paused for it`, async () => {
    const link = await newLink();
    for (let i = 0; i < PER_ADDRESS; i++) {
      expect((await t.app.inject({ method: 'GET', url: `/link/lk_guess${i}`, remoteAddress: '10.3.0.1' })).statusCode).toBe(404);
    }
    expectPaused(await t.app.inject({ method: 'GET', url: link.path, remoteAddress: '10.3.0.1' }));
    expect((await t.app.inject({ method: 'GET', url: link.path, remoteAddress: '10.3.0.2' })).statusCode).toBe(200);
  });

  it(`after ${PER_ADDRESS} refused sign-ins from one address: paused before the platform is asked again`, async () => {
    const links = await Promise.all(Array.from({ length: PER_ADDRESS + 1 }, () => newLink()));
    for (const link of links.slice(0, PER_ADDRESS)) expect((await signIn('10.3.1.1', link.path, 'wrong')).statusCode).toBe(422);
    const asked = identifyCalls;
    const last = links.at(-1);
    if (last === undefined) throw new Error('no link');
    expectPaused(await signIn('10.3.1.1', last.path, 'secret'));
    expect(identifyCalls).toBe(asked);
    expect((await signIn('10.3.1.2', last.path, 'secret')).statusCode).toBe(303);
  });

  it(`after ${PER_TARGET} refused sign-ins at one link from many addresses: that link is paused, the platform is not asked`, async () => {
    const link = await newLink();
    for (let i = 0; i < PER_TARGET; i++) expect((await signIn(`10.3.2.${i + 1}`, link.path, 'wrong')).statusCode).toBe(422);
    const asked = identifyCalls;
    expectPaused(await signIn('10.3.2.200', link.path, 'secret'));
    expect(identifyCalls).toBe(asked);
    const linked = await t.db.pool.query('SELECT 1 FROM connections WHERE id = $1 AND linked_at IS NOT NULL', [link.id]);
    expect(linked.rowCount).toBe(0);
    // Another link from the same address is not paused.
    expect((await signIn('10.3.2.200', (await newLink()).path, 'secret')).statusCode).toBe(303);
  });
});
