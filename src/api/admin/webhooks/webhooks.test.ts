import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { emitEvents } from '../../../events/emit.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import type { CreatedOrganization } from '../../../tenants/organizations.ts';
import type { Environment } from '../../../tenants/types.ts';
import { setWebhookUrl, webhookUrlError } from '../../../webhooks/admin.ts';
import { errorBody, json, startTestApp, type Json, type TestApp } from '../../../../test/support/app.ts';
import { buildApp } from '../../../app.ts';
import { ROOT } from '../../../../test/support/process.ts';
import { contract as setContract } from './set.ts';
import { contract as getContract } from './get.ts';
import { contract as listContract } from './list-deliveries.ts';
import { contract as getDeliveryContract } from './get-delivery.ts';
import { contract as retryContract } from './retry-delivery.ts';
import { contract as replayContract } from './replay-deliveries.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const admin = () => ({ authorization: `Bearer ${t.adminToken}` });
const MISSING_ORG = '00000000-0000-4000-8000-000000000000';

interface Delivery {
  id: string;
  event_id: string;
  environment: string;
  connection_id: string | null;
  code: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  deadline_at: string;
  replay_of: string | null;
  created_at: string;
  finished_at: string | null;
}

async function putUrl(orgId: string, environment: Environment, url: string, app = t) {
  return app.app.inject({
    method: 'PUT',
    url: `/admin/organizations/${orgId}/webhook`,
    headers: { authorization: `Bearer ${app.adminToken}` },
    payload: { environment, url },
  });
}

/** Emits events (the trigger creates one delivery each when the environment has a URL); returns the organisation's deliveries, oldest first. */
async function emit(
  org: CreatedOrganization,
  environment: Environment,
  events: { code: string; connectionId?: string | null }[],
): Promise<Delivery[]> {
  await emitEvents(
    t.db.pool,
    t.services.cipher,
    { organizationId: org.organization.id, environment },
    events.map((e) => ({
      connectionId: e.connectionId ?? null,
      type: e.code.split('_')[0] ?? 'CONNECTION',
      code: e.code,
      payload: { code: e.code },
    })),
  );
  return deliveriesOf(org);
}

async function deliveriesOf(org: CreatedOrganization): Promise<Delivery[]> {
  const rows = await t.db.pool.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE organization_id = $1 ORDER BY created_at, id', [
    org.organization.id,
  ]);
  const out: Delivery[] = [];
  for (const row of rows.rows) {
    const response = await t.app.inject({
      method: 'GET',
      url: `/admin/organizations/${org.organization.id}/webhook/deliveries/${row.id}`,
      headers: admin(),
    });
    out.push((json(response) as { delivery: Delivery }).delivery);
  }
  return out;
}

async function setStatus(ids: string[], status: string, finishedAt: string | null = null): Promise<void> {
  await t.db.pool.query(
    `UPDATE webhook_deliveries SET status = $2, finished_at = COALESCE($3::timestamptz, clock_timestamp()) WHERE id = ANY($1::uuid[])`,
    [ids, status, finishedAt],
  );
}

async function list(orgId: string, query = ''): Promise<{ deliveries: Delivery[]; next_cursor: string | null }> {
  const response = await t.app.inject({ method: 'GET', url: `/admin/organizations/${orgId}/webhook/deliveries${query}`, headers: admin() });
  expect(response.statusCode, response.body).toBe(200);
  const body = json(response);
  expect(Value.Check(listContract.success.schema, body)).toBe(true);
  return body as { deliveries: Delivery[]; next_cursor: string | null };
}

describe('admin token', () => {
  it('every webhook endpoint refuses a missing, malformed or wrong token', async () => {
    const org = t.org.organization.id;
    const delivery = randomUUID();
    const calls: { method: 'GET' | 'PUT' | 'POST' | 'DELETE'; url: string; payload?: object }[] = [
      { method: 'PUT', url: `/admin/organizations/${org}/webhook`, payload: { environment: 'sandbox', url: 'https://example.com/h' } },
      { method: 'GET', url: `/admin/organizations/${org}/webhook` },
      { method: 'DELETE', url: `/admin/organizations/${org}/webhook?environment=sandbox` },
      { method: 'GET', url: `/admin/organizations/${org}/webhook/deliveries` },
      { method: 'GET', url: `/admin/organizations/${org}/webhook/deliveries/${delivery}` },
      { method: 'POST', url: `/admin/organizations/${org}/webhook/deliveries/${delivery}/retry`, payload: {} },
      {
        method: 'POST',
        url: `/admin/organizations/${org}/webhook/deliveries/replay`,
        payload: { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' },
      },
    ];
    for (const call of calls) {
      for (const headers of [
        {},
        { authorization: 'Bearer' },
        { authorization: 'Bearer wrong-token-value' },
        { authorization: `Basic ${t.adminToken}` },
      ]) {
        const response = await t.app.inject({ ...call, headers });
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
        expect(errorBody(response).error_code).toBe('INVALID_ADMIN_TOKEN');
      }
    }
    // Nothing was configured by the refused PUT.
    expect((await t.db.pool.query('SELECT 1 FROM webhook_endpoints WHERE organization_id = $1', [org])).rowCount).toBe(0);
  });
});

describe('PUT, GET and DELETE /admin/organizations/:id/webhook', () => {
  it('sets, replaces, lists and removes URLs per environment', async () => {
    const org = await t.newOrg('Configure');
    const id = org.organization.id;
    const empty = await t.app.inject({ method: 'GET', url: `/admin/organizations/${id}/webhook`, headers: admin() });
    expect(json(empty)).toEqual({ webhooks: [] });

    const first = await putUrl(id, 'sandbox', 'https://example.com/hooks/one');
    expect(first.statusCode).toBe(200);
    expect(Value.Check(setContract.success.schema, json(first))).toBe(true);
    const firstHook = (json(first) as { webhook: { environment: string; url: string; updated_at: string } }).webhook;
    expect(firstHook).toMatchObject({ environment: 'sandbox', url: 'https://example.com/hooks/one' });

    const replaced = await putUrl(id, 'sandbox', 'https://example.com/hooks/two');
    const replacedHook = (json(replaced) as { webhook: { url: string; updated_at: string } }).webhook;
    expect(replacedHook.url).toBe('https://example.com/hooks/two');
    expect(Date.parse(replacedHook.updated_at)).toBeGreaterThanOrEqual(Date.parse(firstHook.updated_at));
    expect((await putUrl(id, 'production', 'http://hooks.example.com:8443/p')).statusCode).toBe(200);

    const listed = await t.app.inject({ method: 'GET', url: `/admin/organizations/${id}/webhook`, headers: admin() });
    expect(Value.Check(getContract.success.schema, json(listed))).toBe(true);
    expect((json(listed) as { webhooks: { environment: string; url: string }[] }).webhooks.map((w) => [w.environment, w.url])).toEqual([
      ['sandbox', 'https://example.com/hooks/two'],
      ['production', 'http://hooks.example.com:8443/p'],
    ]);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/admin/organizations/${id}/webhook?environment=production`, headers: admin() });
    expect(deleted.statusCode).toBe(200);
    expect(json(deleted)).toEqual({ deleted: true });
    const after = json(await t.app.inject({ method: 'GET', url: `/admin/organizations/${id}/webhook`, headers: admin() })) as {
      webhooks: { environment: string }[];
    };
    expect(after.webhooks.map((w) => w.environment)).toEqual(['sandbox']);

    const again = await t.app.inject({ method: 'DELETE', url: `/admin/organizations/${id}/webhook?environment=production`, headers: admin() });
    expect(again.statusCode).toBe(410);
    expect(errorBody(again).error_message).toContain('no webhook URL for production');
  });

  it('removing a URL stops new deliveries; existing ones keep going', async () => {
    const org = await t.newOrg('Stop');
    await putUrl(org.organization.id, 'sandbox', 'https://example.com/stop');
    const before = await emit(org, 'sandbox', [{ code: 'BILL_CREATED' }]);
    expect(before).toHaveLength(1);
    await t.app.inject({ method: 'DELETE', url: `/admin/organizations/${org.organization.id}/webhook?environment=sandbox`, headers: admin() });
    const after = await emit(org, 'sandbox', [{ code: 'BILL_UPDATED' }]);
    expect(after.map((d) => [d.id, d.status])).toEqual([[before[0]?.id, 'pending']]);
  });

  it('refuses unusable URLs, naming `url` and what to fix', async () => {
    const id = t.org.organization.id;
    const cases: [string, string][] = [
      ['ftp://example.com/hooks', 'must use http or https'],
      ['javascript:alert(1)', 'must use http or https'],
      ['https://user:secret@example.com/hooks', 'must not carry credentials'],
      ['https://example.com/hooks#part', 'must not have a #fragment'],
      ['not a url', 'is not a valid URL; expected e.g. https://'],
    ];
    for (const [url, message] of cases) {
      const response = await putUrl(id, 'sandbox', url);
      expect(response.statusCode, url).toBe(400);
      const body = errorBody(response);
      expect(body.error_code).toBe('VALIDATION_ERROR');
      expect(body.error_message).toContain('`url` in the request body');
      expect(body.error_message).toContain(message);
      expect(body.error_metadata).toMatchObject({ field: 'url', location: 'body' });
    }
    expect((await t.db.pool.query('SELECT 1 FROM webhook_endpoints WHERE organization_id = $1', [id])).rowCount).toBe(0);
  });

  it('refuses malformed bodies, environments and ids', async () => {
    const url = `/admin/organizations/${t.org.organization.id}/webhook`;
    for (const payload of [
      {},
      { environment: 'staging', url: 'https://example.com' },
      { environment: 'sandbox' },
      { environment: 'sandbox', url: '' },
      { environment: 'sandbox', url: 'https://example.com', extra: 1 },
      { environment: 'sandbox', url: `https://example.com/${'a'.repeat(2000)}` },
    ]) {
      const response = await t.app.inject({ method: 'PUT', url, headers: admin(), payload });
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(errorBody(response).error_code).toBe('VALIDATION_ERROR');
    }
    const noEnv = await t.app.inject({ method: 'DELETE', url, headers: admin() });
    expect(noEnv.statusCode).toBe(400);
    expect(errorBody(noEnv).error_metadata).toMatchObject({ field: 'environment', location: 'query' });
    const badId = await t.app.inject({ method: 'GET', url: '/admin/organizations/not-a-uuid/webhook', headers: admin() });
    expect(badId.statusCode).toBe(400);
    expect(errorBody(badId).error_metadata).toMatchObject({ location: 'params', field: 'id' });
  });

  it('answers 410 for an organisation that does not exist', async () => {
    const responses = [
      await putUrl(MISSING_ORG, 'sandbox', 'https://example.com/h'),
      await t.app.inject({ method: 'GET', url: `/admin/organizations/${MISSING_ORG}/webhook`, headers: admin() }),
      await t.app.inject({ method: 'DELETE', url: `/admin/organizations/${MISSING_ORG}/webhook?environment=sandbox`, headers: admin() }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(410);
      expect(errorBody(response).error_code).toBe('RESOURCE_NOT_FOUND');
    }
  });
});

describe('private addresses', () => {
  const privateUrls = [
    'http://10.0.0.1/',
    'http://127.0.0.1:8080/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://[::ffff:192.168.1.1]/',
    // Forms the hand-written prefixes let through (issue 19).
    'http://[::127.0.0.1]/',
    'http://[64:ff9b:1::a00:1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://2130706433/',
  ];

  it('the shared function refuses them when allowPrivate is false and accepts them when true', async () => {
    for (const url of privateUrls) {
      const error = webhookUrlError(url, false, 'body');
      expect(error?.code, url).toBe('VALIDATION_ERROR');
      expect(error?.message).toContain('WEBHOOK_ALLOW_PRIVATE=false');
      expect(webhookUrlError(url, true, 'body')).toBeNull();
    }
    expect(webhookUrlError('https://example.com/hooks', false, 'body')).toBeNull();
    const refused = setWebhookUrl(t.db.pool, {
      organizationId: t.org.organization.id,
      environment: 'sandbox',
      url: 'http://10.0.0.1/',
      allowPrivate: false,
    });
    await expect(refused).rejects.toBeInstanceOf(ServiceError);
    await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_ERROR', metadata: { field: 'url' } });
  });

  it('the development default (WEBHOOK_ALLOW_PRIVATE unset, not production) accepts them', async () => {
    expect(t.services.config.webhookAllowPrivate).toBe(true);
    const org = await t.newOrg('Local dev');
    expect((await putUrl(org.organization.id, 'sandbox', 'http://10.0.0.1/')).statusCode).toBe(200);
  });

  describe('over HTTP with WEBHOOK_ALLOW_PRIVATE=false', () => {
    let strict: TestApp;
    beforeAll(async () => {
      strict = await startTestApp({ config: { production: true, webhookAllowPrivate: false } });
    });
    afterAll(async () => {
      await strict.close();
    });

    it('answers 400 naming url, and stores nothing', async () => {
      for (const url of privateUrls) {
        const response = await putUrl(strict.org.organization.id, 'production', url, strict);
        expect(response.statusCode, url).toBe(400);
        const body = errorBody(response);
        expect(body.error_message).toContain('not a global unicast address');
        expect(body.error_metadata).toMatchObject({ field: 'url', location: 'body' });
      }
      expect((await putUrl(strict.org.organization.id, 'production', 'https://hooks.example.com/x', strict)).statusCode).toBe(200);
      const stored = await strict.db.pool.query<{ url: string }>('SELECT url FROM webhook_endpoints WHERE organization_id = $1', [
        strict.org.organization.id,
      ]);
      expect(stored.rows).toEqual([{ url: 'https://hooks.example.com/x' }]);
    });
  });
});

describe('GET /admin/organizations/:id/webhook/deliveries', () => {
  let org: CreatedOrganization;
  let all: Delivery[];
  const connA = randomUUID();
  const connB = randomUUID();

  beforeAll(async () => {
    org = await t.newOrg('Deliveries');
    await putUrl(org.organization.id, 'sandbox', 'https://example.com/sandbox');
    await putUrl(org.organization.id, 'production', 'https://example.com/production');
    await emit(org, 'sandbox', [
      { code: 'BILL_CREATED', connectionId: connA },
      { code: 'BILL_UPDATED', connectionId: connA },
      { code: 'BILL_CREATED', connectionId: connB },
      { code: 'INVOICE_CREATED', connectionId: connB },
      { code: 'CONNECTION_INITIAL_UPDATE' },
    ]);
    all = await emit(org, 'production', [
      { code: 'BILL_CREATED', connectionId: connA },
      { code: 'BILL_DELETED', connectionId: connA },
    ]);
    expect(all).toHaveLength(7);
    await setStatus([all[0]?.id ?? '', all[3]?.id ?? ''], 'failed');
    await setStatus([all[1]?.id ?? ''], 'delivered');
  });

  it('lists every delivery newest first with the documented fields', async () => {
    const page = await list(org.organization.id);
    expect(page.next_cursor).toBeNull();
    expect(page.deliveries.map((d) => d.id)).toEqual(all.map((d) => d.id).reverse());
    const first = page.deliveries.at(-1);
    expect(first).toMatchObject({
      environment: 'sandbox',
      connection_id: connA,
      code: 'BILL_CREATED',
      status: 'failed',
      attempts: 0,
      replay_of: null,
    });
    expect(Date.parse(first?.deadline_at ?? '') - Date.parse(first?.created_at ?? '')).toBeGreaterThan(14 * 60_000);
  });

  it('shows each deadline as the dispatcher keeps it, shortened by WEBHOOK_SCHEDULE_SCALE like the delays', async () => {
    const scaled = await buildApp({ ...t.services, config: { ...t.services.config, webhookScheduleScale: 0.01 } }, { logger: false });
    try {
      const response = await scaled.inject({
        method: 'GET',
        url: `/admin/organizations/${org.organization.id}/webhook/deliveries?limit=3`,
        headers: admin(),
      });
      const deliveries = json(response).deliveries as Delivery[];
      expect(deliveries).toHaveLength(3);
      // 15 minutes × 0.01 = 9 s after creation.
      for (const d of deliveries) expect(Date.parse(d.deadline_at) - Date.parse(d.created_at)).toBe(9000);
    } finally {
      await scaled.close();
    }
  });

  it('filters by environment, status, code and connection, together', async () => {
    const ids = async (query: string) => (await list(org.organization.id, query)).deliveries.map((d) => d.id);
    const idsOf = (pick: (d: Delivery) => boolean) =>
      all
        .filter(pick)
        .map((d) => d.id)
        .reverse();
    expect(await ids('?environment=production')).toEqual(idsOf((d) => d.environment === 'production'));
    expect(await ids('?status=failed')).toEqual(idsOf((d) => d.id === all[0]?.id || d.id === all[3]?.id));
    expect(await ids('?status=delivered')).toEqual([all[1]?.id]);
    expect(await ids('?code=BILL_CREATED')).toEqual(idsOf((d) => d.code === 'BILL_CREATED'));
    expect(await ids(`?connection_id=${connB}`)).toEqual(idsOf((d) => d.connection_id === connB));
    expect(await ids(`?code=BILL_CREATED&connection_id=${connA}&environment=sandbox`)).toEqual([all[0]?.id]);
    expect(await ids('?status=delivering')).toEqual([]);
  });

  it('pages with the shared cursor, keeping the filters', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(org.organization.id, `?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(page.deliveries.length).toBeLessThanOrEqual(2);
      seen.push(...page.deliveries.map((d) => d.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual(all.map((d) => d.id).reverse());

    const filtered = await list(org.organization.id, '?environment=sandbox&limit=3');
    expect(filtered.next_cursor).not.toBeNull();
    const rest = await list(org.organization.id, `?environment=sandbox&limit=3&cursor=${filtered.next_cursor ?? ''}`);
    expect([...filtered.deliveries, ...rest.deliveries].map((d) => d.id)).toEqual(
      all
        .slice(0, 5)
        .map((d) => d.id)
        .reverse(),
    );
    expect(rest.next_cursor).toBeNull();
  });

  it("shows no other organisation's deliveries", async () => {
    const other = await t.newOrg('Neighbour');
    expect((await list(other.organization.id)).deliveries).toEqual([]);
  });

  it('refuses malformed cursors, limits and filters', async () => {
    const base = `/admin/organizations/${org.organization.id}/webhook/deliveries`;
    const bad = await t.app.inject({ method: 'GET', url: `${base}?cursor=not-a-cursor`, headers: admin() });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).error_code).toBe('INVALID_CURSOR');
    const forged = Buffer.from(JSON.stringify({ t: 'yesterday', id: 'x' })).toString('base64url');
    expect(errorBody(await t.app.inject({ method: 'GET', url: `${base}?cursor=${forged}`, headers: admin() })).error_code).toBe('INVALID_CURSOR');
    for (const query of ['limit=0', 'limit=501', 'limit=ten', 'status=lost', 'environment=staging', 'connection_id=nope', 'code=bill%20created']) {
      const response = await t.app.inject({ method: 'GET', url: `${base}?${query}`, headers: admin() });
      expect(response.statusCode, query).toBe(400);
      expect(errorBody(response).error_code).toBe('VALIDATION_ERROR');
      expect(errorBody(response).error_metadata).toMatchObject({ location: 'query' });
    }
    const missing = await t.app.inject({ method: 'GET', url: `/admin/organizations/${MISSING_ORG}/webhook/deliveries`, headers: admin() });
    expect(missing.statusCode).toBe(410);
  });
});

describe('GET /admin/organizations/:id/webhook/deliveries/:deliveryId', () => {
  it('shows the delivery with its attempts, first attempt first', async () => {
    const org = await t.newOrg('Attempts');
    await putUrl(org.organization.id, 'sandbox', 'https://example.com/attempts');
    const [delivery] = await emit(org, 'sandbox', [{ code: 'BILL_CREATED' }]);
    const id = delivery?.id ?? '';
    await t.db.pool.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt, url, started_at, duration_ms, status_code, error, response_excerpt) VALUES
         ($1, 2, 'https://example.com/attempts', clock_timestamp(), 5000, NULL, 'timeout after 5000 ms', NULL),
         ($1, 1, 'https://example.com/attempts', clock_timestamp() - interval '10 seconds', 42, 503, 'HTTP 503', 'Service Unavailable')`,
      [id],
    );
    await t.db.pool.query(`UPDATE webhook_deliveries SET attempts = 2, last_status_code = NULL, last_error = 'timeout after 5000 ms' WHERE id = $1`, [
      id,
    ]);

    const response = await t.app.inject({
      method: 'GET',
      url: `/admin/organizations/${org.organization.id}/webhook/deliveries/${id}`,
      headers: admin(),
    });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Value.Check(getDeliveryContract.success.schema, body)).toBe(true);
    const shown = (body as { delivery: Json }).delivery;
    expect(shown).toMatchObject({ id, attempts: 2, last_error: 'timeout after 5000 ms', last_status_code: null });
    expect(shown.attempts_log).toMatchObject([
      {
        attempt: 1,
        url: 'https://example.com/attempts',
        duration_ms: 42,
        status_code: 503,
        error: 'HTTP 503',
        response_excerpt: 'Service Unavailable',
      },
      { attempt: 2, duration_ms: 5000, status_code: null, error: 'timeout after 5000 ms', response_excerpt: null },
    ]);
  });

  it("answers 410 for another organisation's delivery or an unknown one, 400 for a malformed id", async () => {
    const owner = await t.newOrg('Owner');
    await putUrl(owner.organization.id, 'sandbox', 'https://example.com/owner');
    const [delivery] = await emit(owner, 'sandbox', [{ code: 'BILL_CREATED' }]);
    for (const url of [
      `/admin/organizations/${t.org.organization.id}/webhook/deliveries/${delivery?.id ?? ''}`,
      `/admin/organizations/${owner.organization.id}/webhook/deliveries/${randomUUID()}`,
      `/admin/organizations/${MISSING_ORG}/webhook/deliveries/${delivery?.id ?? ''}`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers: admin() });
      expect(response.statusCode, url).toBe(410);
      expect(errorBody(response).error_code).toBe('RESOURCE_NOT_FOUND');
    }
    const malformed = await t.app.inject({
      method: 'GET',
      url: `/admin/organizations/${owner.organization.id}/webhook/deliveries/123`,
      headers: admin(),
    });
    expect(malformed.statusCode).toBe(400);
    expect(errorBody(malformed).error_metadata).toMatchObject({ location: 'params', field: 'deliveryId' });
  });
});

describe('POST /admin/organizations/:id/webhook/deliveries/:deliveryId/retry', () => {
  it('creates a new delivery of the same event with replay_of and a fresh window', async () => {
    const org = await t.newOrg('Retry');
    await putUrl(org.organization.id, 'sandbox', 'https://example.com/retry');
    const connectionId = randomUUID();
    const [original] = await emit(org, 'sandbox', [{ code: 'BILL_CREATED', connectionId }]);
    const originalId = original?.id ?? '';
    // Long past its window, failed.
    await t.db.pool.query(
      `UPDATE webhook_deliveries SET status = 'failed', attempts = 7, finished_at = clock_timestamp(),
      created_at = clock_timestamp() - interval '2 hours', deadline_at = clock_timestamp() - interval '105 minutes' WHERE id = $1`,
      [originalId],
    );

    const before = Date.now();
    const response = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${org.organization.id}/webhook/deliveries/${originalId}/retry`,
      headers: admin(),
    });
    expect(response.statusCode, response.body).toBe(202);
    const body = json(response);
    expect(Value.Check(retryContract.success.schema, body)).toBe(true);
    const copy = (body as { delivery: Delivery }).delivery;
    expect(copy).toMatchObject({
      event_id: original?.event_id,
      environment: 'sandbox',
      connection_id: connectionId,
      code: 'BILL_CREATED',
      status: 'pending',
      attempts: 0,
      replay_of: originalId,
      finished_at: null,
    });
    expect(copy.id).not.toBe(originalId);
    expect(Math.abs(Date.parse(copy.next_attempt_at) - before)).toBeLessThan(10_000);
    const window = Date.parse(copy.deadline_at) - Date.parse(copy.next_attempt_at);
    expect(window).toBeGreaterThan(15 * 60_000 - 1000);
    expect(window).toBeLessThan(15 * 60_000 + 1000);

    // The dispatcher's claim condition holds for the copy; the original is untouched.
    const due = await t.db.pool.query<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE organization_id = $1 AND status = 'pending' AND next_attempt_at <= now() + interval '1 second' AND deadline_at > now()`,
      [org.organization.id],
    );
    expect(due.rows.map((r) => r.id)).toEqual([copy.id]);
    const unchanged = await t.db.pool.query<{ status: string; attempts: number }>('SELECT status, attempts FROM webhook_deliveries WHERE id = $1', [
      originalId,
    ]);
    expect(unchanged.rows[0]).toEqual({ status: 'failed', attempts: 7 });

    // A retry of the retry points at the copy.
    const again = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${org.organization.id}/webhook/deliveries/${copy.id}/retry`,
      headers: admin(),
      payload: {},
    });
    expect((json(again) as { delivery: Delivery }).delivery.replay_of).toBe(copy.id);
  });

  it("answers 410 for another organisation's delivery, 400 without a webhook URL or with a body", async () => {
    const org = await t.newOrg('Retry refusals');
    await putUrl(org.organization.id, 'production', 'https://example.com/prod');
    const [delivery] = await emit(org, 'production', [{ code: 'INVOICE_CREATED' }]);
    const id = delivery?.id ?? '';
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${t.org.organization.id}/webhook/deliveries/${id}/retry`,
      headers: admin(),
    });
    expect(foreign.statusCode).toBe(410);
    expect(errorBody(foreign).error_code).toBe('RESOURCE_NOT_FOUND');
    const unknown = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${org.organization.id}/webhook/deliveries/${randomUUID()}/retry`,
      headers: admin(),
    });
    expect(unknown.statusCode).toBe(410);

    const withBody = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${org.organization.id}/webhook/deliveries/${id}/retry`,
      headers: admin(),
      payload: { force: true },
    });
    expect(withBody.statusCode).toBe(400);

    await t.app.inject({ method: 'DELETE', url: `/admin/organizations/${org.organization.id}/webhook?environment=production`, headers: admin() });
    const noUrl = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${org.organization.id}/webhook/deliveries/${id}/retry`,
      headers: admin(),
    });
    expect(noUrl.statusCode).toBe(400);
    expect(errorBody(noUrl).error_code).toBe('VALIDATION_ERROR');
    expect(errorBody(noUrl).error_message).toContain('no webhook URL for production');
    expect((await deliveriesOf(org)).map((d) => d.id)).toEqual([id]);
  });
});

describe('POST /admin/organizations/:id/webhook/deliveries/replay', () => {
  const replay = (orgId: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/admin/organizations/${orgId}/webhook/deliveries/replay`, headers: admin(), payload });

  it('re-sends only failed deliveries created in [from, to), each once', async () => {
    const org = await t.newOrg('Replay');
    const id = org.organization.id;
    await putUrl(id, 'sandbox', 'https://example.com/replay');
    const d = await emit(
      org,
      'sandbox',
      ['A', 'B', 'C', 'D', 'E', 'F'].map((x) => ({ code: `BILL_${x}` })),
    );
    const at: [number, string][] = [
      [0, '2026-01-10T12:00:00Z'],
      [1, '2026-01-10T12:01:00Z'],
      [2, '2026-01-10T12:02:00Z'],
      [3, '2026-01-10T12:03:00Z'],
      [4, '2026-01-09T23:59:59.999Z'],
      [5, '2026-01-11T00:00:00Z'],
    ];
    for (const [i, createdAt] of at) await t.db.pool.query('UPDATE webhook_deliveries SET created_at = $2 WHERE id = $1', [d[i]?.id, createdAt]);
    const ids = d.map((x) => x.id);
    await setStatus(
      [ids[0], ids[1], ids[3], ids[4], ids[5]].map((x) => x ?? ''),
      'failed',
    );
    await setStatus([ids[2] ?? ''], 'delivered');
    // d[3] was already re-sent by hand.
    expect(
      (await t.app.inject({ method: 'POST', url: `/admin/organizations/${id}/webhook/deliveries/${ids[3] ?? ''}/retry`, headers: admin() }))
        .statusCode,
    ).toBe(202);

    const range = { from: '2026-01-10T00:00:00Z', to: '2026-01-11T00:00:00Z' };
    const response = await replay(id, range);
    expect(response.statusCode, response.body).toBe(202);
    expect(Value.Check(replayContract.success.schema, json(response))).toBe(true);
    expect(json(response)).toEqual({ replayed: 2 });

    const copies = await t.db.pool.query<{ replay_of: string; status: string; event_id: string; window: number }>(
      `SELECT replay_of, status, event_id, extract(epoch FROM deadline_at - next_attempt_at)::int AS window
         FROM webhook_deliveries WHERE organization_id = $1 AND replay_of IS NOT NULL AND replay_of <> $2 ORDER BY replay_of`,
      [id, ids[3]],
    );
    expect(copies.rows.map((r) => r.replay_of).sort()).toEqual([ids[0], ids[1]].sort());
    expect(copies.rows.every((r) => r.status === 'pending' && r.window === 900)).toBe(true);
    expect(copies.rows.map((r) => r.event_id).sort()).toEqual([d[0]?.event_id, d[1]?.event_id].sort());

    expect(json(await replay(id, range))).toEqual({ replayed: 0 });
    expect(json(await replay(id, { ...range, environment: 'sandbox' }))).toEqual({ replayed: 0 });
  });

  it('keeps to the requested environment and refuses one without a webhook URL', async () => {
    const org = await t.newOrg('Replay environments');
    const id = org.organization.id;
    await putUrl(id, 'sandbox', 'https://example.com/s');
    await putUrl(id, 'production', 'https://example.com/p');
    await emit(org, 'sandbox', [{ code: 'BILL_CREATED' }]);
    const all = await emit(org, 'production', [{ code: 'BILL_CREATED' }]);
    await setStatus(
      all.map((x) => x.id),
      'failed',
    );
    const range = { from: new Date(Date.now() - 3600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
    expect(json(await replay(id, { ...range, environment: 'production' }))).toEqual({ replayed: 1 });
    expect(json(await replay(id, range))).toEqual({ replayed: 1 });

    const bare = await t.newOrg('No URL');
    const refused = await replay(bare.organization.id, { ...range, environment: 'sandbox' });
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).error_message).toContain('no webhook URL for sandbox');
  });

  it('refuses empty, reversed, too long or malformed ranges, and unknown organisations', async () => {
    const id = t.org.organization.id;
    const cases: [object, string][] = [
      [{ from: '2026-01-02T00:00:00Z', to: '2026-01-02T00:00:00Z' }, '`from` must be before `to`'],
      [{ from: '2026-01-03T00:00:00Z', to: '2026-01-02T00:00:00Z' }, '`from` must be before `to`'],
      [{ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:01Z' }, 'longer than 31 days'],
      [{ from: 'yesterday', to: '2026-01-02T00:00:00Z' }, '`from`'],
      [{ from: '2026-01-01T00:00:00Z' }, '`to`'],
      [{ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', environment: 'staging' }, '`environment`'],
    ];
    for (const [payload, message] of cases) {
      const response = await replay(id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorBody(response).error_code).toBe('VALIDATION_ERROR');
      expect(errorBody(response).error_message).toContain(message);
    }
    // Exactly 31 days is allowed (nothing to replay here).
    await putUrl(id, 'sandbox', 'https://example.com/ok');
    expect(json(await replay(id, { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' }))).toEqual({ replayed: 0 });
    const missing = await replay(MISSING_ORG, { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' });
    expect(missing.statusCode).toBe(410);
  });
});

describe('ledgerport webhook (CLI)', () => {
  const run = promisify(execFile);
  // One key and token for every run: the first run records which key this database uses.
  const fixed = { ADMIN_TOKEN: `cli-test-${randomBytes(8).toString('hex')}`, ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(process.execPath, ['bin/ledgerport.js', 'webhook', ...args], {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: t.db.url,
          ...fixed,
          DATA_DIR: '/tmp/ledgerport-test-data',
          LOG_LEVEL: 'silent',
          WEBHOOK_ALLOW_PRIVATE: 'false',
          ...env,
        },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  it('sets, lists, retries and replays through the same functions as the API', async () => {
    const org = await t.newOrg('CLI');
    const id = org.organization.id;
    const set = await cli(['set', '--id', id, '--environment', 'sandbox', '--url', 'https://example.com/cli']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ webhook: { environment: 'sandbox', url: 'https://example.com/cli' } });
    const got = await cli(['get', '--id', id]);
    expect((JSON.parse(got.stdout) as { webhooks: unknown[] }).webhooks).toHaveLength(1);

    const delivered = await emit(org, 'sandbox', [{ code: 'BILL_CREATED' }, { code: 'BILL_UPDATED' }]);
    await setStatus([delivered[0]?.id ?? ''], 'failed');
    const failed = await cli(['deliveries', '--id', id, '--status', 'failed', '--limit', '5']);
    expect(failed.code, failed.stderr).toBe(0);
    expect((JSON.parse(failed.stdout) as { deliveries: { id: string }[] }).deliveries.map((x) => x.id)).toEqual([delivered[0]?.id]);

    const retried = await cli(['retry', '--id', id, '--delivery', delivered[0]?.id ?? '']);
    expect(retried.code, retried.stderr).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({ delivery: { replay_of: delivered[0]?.id, status: 'pending' } });

    await setStatus([delivered[1]?.id ?? ''], 'failed');
    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const replayed = await cli(['replay', '--id', id, '--from', from, '--to', to]);
    expect(replayed.code, replayed.stderr).toBe(0);
    // delivered[0] was retried already; only delivered[1] is re-sent.
    expect(JSON.parse(replayed.stdout)).toEqual({ replayed: 1 });
  });

  it('refuses usage errors before touching the database, and bad URLs with the reason', async () => {
    const usage = await cli(['retry', '--id', t.org.organization.id]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--delivery');
    const badStatus = await cli(['deliveries', '--id', t.org.organization.id, '--status', 'lost']);
    expect(badStatus.code).toBe(2);
    const privateUrl = await cli(['set', '--id', t.org.organization.id, '--environment', 'production', '--url', 'http://10.0.0.1/']);
    expect(privateUrl.code).toBe(1);
    expect(privateUrl.stderr).toContain('`url` points at 10.0.0.1');
  });
});
