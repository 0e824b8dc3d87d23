import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvents } from '../../events/emit.ts';
import { errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { signedInUser, type DashboardSession } from '../../../test/support/dashboard.ts';
import { verifySignatures } from '../../webhooks/signature.ts';

let t: TestApp;
let admin: DashboardSession;
let developer: DashboardSession;
let viewer: DashboardSession;
let receiver: http.Server;
let receiverUrl: string;
const received: { body: string; signatures: string }[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const org = t.org.organization.id;
  admin = await signedInUser(t.app, t.db.pool, org, 'admin');
  developer = await signedInUser(t.app, t.db.pool, org, 'developer');
  viewer = await signedInUser(t.app, t.db.pool, org, 'viewer');
  // A receiver that refuses what it gets: deliveries to it fail.
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signatures: String(request.headers['x-service-signatures']) });
      response.writeHead(503).end('receiver down for maintenance');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise<void>((resolve) =>
    receiver.close(() => {
      resolve();
    }),
  );
  await t.close();
});

const orgId = () => t.org.organization.id;

function form(session: DashboardSession, url: string, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: session.csrfToken, ...fields }).toString(),
  });
}

function page(session: DashboardSession, url = '/dashboard/webhooks') {
  return t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
}

const problemOf = (location: string | undefined) => new URL(location ?? '', 'http://x').searchParams.get('problem');
const noticeOf = (location: string | undefined) => new URL(location ?? '', 'http://x').searchParams.get('notice');

async function webhookRows(): Promise<{ environment: string; url: string }[]> {
  const rows = await t.db.pool.query<{ environment: string; url: string }>(
    'SELECT environment, url FROM webhook_endpoints WHERE organization_id = $1',
    [orgId()],
  );
  return rows.rows;
}

describe('the Webhooks page', () => {
  it('sends a visitor without a session to sign in, and its fragment answers 401', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/dashboard/webhooks' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toContain('/dashboard/login');
    expect((await t.app.inject({ method: 'GET', url: '/dashboard/fragments/webhook-deliveries' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/admin/organizations/${orgId()}/webhook` })).statusCode).toBe(401);
  });

  it('sets the address with the API’s 400 for a bad URL, shows both environments, and a viewer may not change it', async () => {
    const bad = await form(developer, '/dashboard/webhooks/url', { environment: 'sandbox', url: 'ftp://example.com/x' });
    expect(bad.statusCode).toBe(303);
    expect(problemOf(bad.headers.location)).toMatch(/http/i);
    expect(await webhookRows()).toEqual([]);

    const refused = await form(viewer, '/dashboard/webhooks/url', { environment: 'sandbox', url: receiverUrl });
    expect(problemOf(refused.headers.location)).toMatch(/viewer/);
    expect(await webhookRows()).toEqual([]);

    const set = await form(developer, '/dashboard/webhooks/url', { environment: 'sandbox', url: receiverUrl });
    expect(noticeOf(set.headers.location)).toContain(receiverUrl);
    const shown = await page(viewer);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(receiverUrl);
    expect(shown.body).toContain('production');
    expect(shown.body).toContain('Not set');
    // A viewer sees no change forms.
    expect(shown.body).not.toContain('data-testid="webhook-url-form"');
    expect((await page(developer)).body).toContain('data-testid="webhook-url-form"');
  });

  it('a forged viewer PUT to the admin API is refused with 403 and changes nothing; malformed input is a 400', async () => {
    const forged = await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${orgId()}/webhook`,
      headers: viewer.headers,
      payload: { environment: 'sandbox', url: 'https://attacker.example/h' },
    });
    expect(forged.statusCode).toBe(403);
    expect(errorBody(forged).error_code).toBe('ROLE_NOT_ALLOWED');
    const noCsrf = await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${orgId()}/webhook`,
      headers: { cookie: developer.cookie },
      payload: { environment: 'sandbox', url: 'https://attacker.example/h' },
    });
    expect(noCsrf.statusCode).toBe(403);
    const malformed = await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${orgId()}/webhook`,
      headers: developer.headers,
      payload: { environment: 'staging', url: 'https://example.com/h' },
    });
    expect(malformed.statusCode).toBe(400);
    expect((await webhookRows()).map((r) => r.url)).toEqual([receiverUrl]);
  });

  it('answers the same for a session as for the operator, and not-found for another organisation', async () => {
    const asOperator = await t.app.inject({
      method: 'GET',
      url: `/admin/organizations/${orgId()}/webhook`,
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    const asSession = await t.app.inject({ method: 'GET', url: `/admin/organizations/${orgId()}/webhook`, headers: { cookie: viewer.cookie } });
    expect(asSession.statusCode).toBe(200);
    expect(json(asSession)).toEqual(json(asOperator));
    const other = await t.newOrg('Other webhooks org');
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/admin/organizations/${other.organization.id}/webhook/deliveries`,
      headers: { cookie: admin.cookie },
    });
    // The service's not-found answer (RESOURCE_NOT_FOUND, HTTP 410), as for an organisation that does not exist.
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/admin/organizations/00000000-0000-4000-8000-000000000000/webhook/deliveries',
      headers: { cookie: admin.cookie },
    });
    expect(errorBody(foreign).error_code).toBe('RESOURCE_NOT_FOUND');
    expect(foreign.statusCode).toBe(unknown.statusCode);
    const foreignPut = await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${other.organization.id}/webhook`,
      headers: admin.headers,
      payload: { environment: 'sandbox', url: 'https://example.com/h' },
    });
    expect(errorBody(foreignPut).error_code).toBe('RESOURCE_NOT_FOUND');
    const rows = await t.db.pool.query('SELECT 1 FROM webhook_endpoints WHERE organization_id = $1', [other.organization.id]);
    expect(rows.rowCount).toBe(0);
  });

  it('sends a signed test event and shows the receiver’s answer; a viewer may not', async () => {
    const sent = await form(developer, '/dashboard/webhooks/test', {});
    expect(problemOf(sent.headers.location)).toMatch(/answered 503/);
    const last = received.at(-1);
    expect(last === undefined ? null : (JSON.parse(last.body) as { code: string }).code).toBe('WEBHOOK_TEST');
    expect(verifySignatures(last?.body ?? '', last?.signatures ?? '', [t.org.credentials.sandbox.client_secret])).toBe(true);
    const before = received.length;
    const refused = await form(viewer, '/dashboard/webhooks/test', {});
    expect(problemOf(refused.headers.location)).toMatch(/viewer/);
    expect(received.length).toBe(before);
    const none = await t.app.inject({ method: 'POST', url: '/dashboard/api/webhooks/test', payload: {} });
    expect(none.statusCode).toBe(401);
  });

  it('shows a failed delivery with its attempts, live, and retrying it from the page re-queues it', async () => {
    await emitEvents(t.db.pool, t.services.cipher, { organizationId: orgId(), environment: 'sandbox' }, [
      { connectionId: null, type: 'CONNECTION', code: 'CONNECTION_UPDATED', payload: { code: 'CONNECTION_UPDATED' } },
    ]);
    const row = await t.db.pool.query<{ id: string }>(
      'SELECT id FROM webhook_deliveries WHERE organization_id = $1 ORDER BY created_at DESC LIMIT 1',
      [orgId()],
    );
    const deliveryId = row.rows[0]?.id ?? '';
    await t.db.pool.query(
      `UPDATE webhook_deliveries SET status = 'failed', attempts = 1, last_status_code = 503, last_error = 'HTTP 503', finished_at = clock_timestamp() WHERE id = $1`,
      [deliveryId],
    );
    await t.db.pool.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt, url, started_at, duration_ms, status_code, error, response_excerpt)
       VALUES ($1, 1, $2, now(), 42, 503, 'HTTP 503', 'receiver down for maintenance')`,
      [deliveryId, receiverUrl],
    );
    const fragment = await t.app.inject({ method: 'GET', url: '/dashboard/fragments/webhook-deliveries', headers: { cookie: viewer.cookie } });
    expect(fragment.statusCode).toBe(200);
    expect(fragment.body).toContain(deliveryId);
    expect(fragment.body).toContain('badge failed');
    const detail = await page(viewer, `/dashboard/webhooks?delivery=${deliveryId}`);
    expect(detail.body).toContain('42 ms');
    expect(detail.body).toContain('receiver down for maintenance');
    expect(detail.body).toContain('data-testid="delivery-log"');
    // In production, the sandbox delivery's attempts are not shown: the switch says where to look.
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `/dashboard/webhooks?delivery=${deliveryId}`,
      headers: { cookie: `${viewer.cookie}; lp_env=production` },
    });
    expect(elsewhere.body).not.toContain('receiver down for maintenance');
    expect(elsewhere.body).toContain('belongs to the sandbox environment');

    const refused = await form(viewer, '/dashboard/webhooks/retry', { delivery_id: deliveryId });
    expect(problemOf(refused.headers.location)).toMatch(/viewer/);
    const count = async () => (await t.db.pool.query('SELECT 1 FROM webhook_deliveries WHERE replay_of = $1', [deliveryId])).rowCount;
    expect(await count()).toBe(0);

    const retried = await form(developer, '/dashboard/webhooks/retry', { delivery_id: deliveryId });
    expect(noticeOf(retried.headers.location)).toContain('re-sent');
    const requeued = await t.db.pool.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE replay_of = $1', [deliveryId]);
    expect(requeued.rows.map((r) => r.status)).toEqual(['pending']);

    const malformed = await form(developer, '/dashboard/webhooks/retry', { delivery_id: 'not-an-id' });
    expect(problemOf(malformed.headers.location)).toMatch(/delivery/);
  });

  it('replays a range of failed deliveries, and refuses a bad range with the API’s 400 message', async () => {
    const bad = await form(developer, '/dashboard/webhooks/replay', { from: '2026-01-10T00:00', to: '2026-01-01T00:00' });
    expect(problemOf(bad.headers.location)).toBeTruthy();
    const from = new Date(Date.now() - 3600_000).toISOString().slice(0, 16);
    const to = new Date(Date.now() + 3600_000).toISOString().slice(0, 16);
    const replayed = await form(developer, '/dashboard/webhooks/replay', { from, to });
    expect(noticeOf(replayed.headers.location)).toMatch(/sent again/);
  });

  it('links to the secret rotation and removes the address (developer), confirmed', async () => {
    expect((await page(viewer)).body).toContain('data-testid="rotate-secret"');
    const removed = await form(developer, '/dashboard/webhooks/remove', { environment: 'sandbox' });
    expect(noticeOf(removed.headers.location)).toContain('removed');
    expect(await webhookRows()).toEqual([]);
  });
});
