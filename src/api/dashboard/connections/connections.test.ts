import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, startTestApp, VERSION, type TestApp } from '../../../../test/support/app.ts';
import { signedInUser, type DashboardSession } from '../../../../test/support/dashboard.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../../test/support/sandbox-connection.ts';

let t: TestApp;
let viewer: DashboardSession;
let stranger: DashboardSession;
let synced: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  viewer = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
  const other = await t.newOrg('Another organisation');
  stranger = await signedInUser(t.app, t.db.pool, other.organization.id, 'admin');
  synced = await syncedSandboxConnection(t, 'user_dash_api_size_20');
});
afterAll(async () => {
  await t.close();
});

const get = (who: DashboardSession | null, url: string, environment?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...(who === null ? {} : { cookie: who.cookie }), ...(environment === undefined ? {} : { 'x-ledgerport-environment': environment }) },
  });

describe('/dashboard/api/connections', () => {
  const id = () => synced.connection.id;
  const urls = () => [
    '/dashboard/api/connections',
    `/dashboard/api/connections/${id()}`,
    `/dashboard/api/connections/${id()}/syncs`,
    `/dashboard/api/connections/${id()}/events`,
    `/dashboard/api/connections/${id()}/write-jobs`,
  ];

  it('answers 401 without a session', async () => {
    for (const url of urls()) {
      const answer = await get(null, url);
      expect(answer.statusCode, url).toBe(401);
      expect(answer.json(), url).toMatchObject({ error_code: 'SESSION_REQUIRED' });
    }
  });

  it("never shows another organisation's or environment's connection", async () => {
    const list = await get(stranger, '/dashboard/api/connections');
    expect(list.json<{ connections: unknown[] }>().connections).toEqual([]);
    for (const url of urls().slice(1)) {
      const answer = await get(stranger, url);
      expect(answer.statusCode, url).toBe(410);
      expect(answer.json(), url).toMatchObject({ error_code: 'RESOURCE_NOT_FOUND' });
      expect(answer.body).not.toContain(synced.token);
    }
    expect((await get(viewer, `/dashboard/api/connections/${id()}`, 'production')).statusCode).toBe(410);
    expect((await get(viewer, '/dashboard/api/connections', 'production')).json<{ connections: unknown[] }>().connections).toEqual([]);
  });

  it('answers malformed input with 400', async () => {
    expect((await get(viewer, '/dashboard/api/connections/not-a-uuid')).statusCode).toBe(400);
    expect((await get(viewer, '/dashboard/api/connections/not-a-uuid/syncs')).statusCode).toBe(400);
    expect((await get(viewer, '/dashboard/api/connections?status=asleep')).statusCode).toBe(400);
    expect((await get(viewer, '/dashboard/api/connections?platform=xero')).statusCode).toBe(400);
    const cursor = await get(viewer, `/dashboard/api/connections/${id()}/syncs?cursor=nope`);
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json()).toMatchObject({ error_code: 'INVALID_CURSOR' });
    expect((await get(viewer, '/dashboard/api/connections/linked?public_token=pt_unknown')).json()).toMatchObject({
      error_code: 'INVALID_PUBLIC_TOKEN',
    });
    expect((await get(viewer, '/dashboard/api/connections', 'mars')).statusCode).toBe(400);
  });

  it('lists the connection with its last sync, found by id and by platform', async () => {
    const answer = await get(viewer, `/dashboard/api/connections?search=${id().toUpperCase()}&platform=SANDBOX`);
    expect(answer.statusCode).toBe(200);
    const body = answer.json<{ connections: { id: string; last_sync: { kind: string; status: string } | null }[]; platforms: { id: string }[] }>();
    expect(body.connections.map((c) => c.id)).toEqual([id()]);
    expect(body.connections[0]?.last_sync).toMatchObject({ kind: 'initial', status: 'completed' });
    expect(body.platforms.map((p) => p.id)).toContain('SANDBOX');
    expect(answer.body).not.toContain(synced.token);
    const none = await get(viewer, `/dashboard/api/connections?search=${id()}&platform=XERO`);
    expect(none.json<{ connections: unknown[] }>().connections).toEqual([]);
  });

  it('gives the sync runs and object states of a real sync', async () => {
    const answer = await get(viewer, `/dashboard/api/connections/${id()}/syncs`);
    expect(answer.statusCode).toBe(200);
    const body = answer.json<{
      is_ready: boolean;
      entities: string[];
      objects: { entity: string; ready: boolean; stored_records: number; records_read: number }[];
      runs: {
        kind: string;
        status: string;
        duration_ms: number | null;
        records_read: number;
        created: number;
        objects: { entity: string; records_read: number; pages_read: number }[];
      }[];
    }>();
    expect(body.is_ready).toBe(true);
    expect(body.entities).toContain('ACCOUNT');
    expect(body.runs).toHaveLength(1);
    expect(body.runs[0]).toMatchObject({ kind: 'initial', status: 'completed' });
    expect(body.runs[0]?.duration_ms).toBeGreaterThanOrEqual(0);
    const account = body.objects.find((o) => o.entity === 'ACCOUNT');
    const stored = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM records WHERE connection_id = $1 AND object_type = 'account' AND deleted_at IS NULL",
      [id()],
    );
    expect(account).toMatchObject({ ready: true, stored_records: stored.rows[0]?.n });
    expect(account?.records_read).toBeGreaterThan(0);
    // The run's own counts: its only run read everything the object's all-time counters say.
    const runAccount = body.runs[0]?.objects.find((o) => o.entity === 'ACCOUNT');
    expect(runAccount?.records_read).toBe(account?.records_read);
    expect(body.runs[0]?.records_read).toBe(body.objects.reduce((total, o) => total + o.records_read, 0));
    expect(body.runs[0]?.created).toBeGreaterThanOrEqual(stored.rows[0]?.n ?? Infinity);
  });

  it('gives the events (without secrets) and write jobs of the connection', async () => {
    const events = await get(viewer, `/dashboard/api/connections/${id()}/events`);
    expect(events.statusCode).toBe(200);
    const codes = events.json<{ events: { code: string; payload: Record<string, unknown> }[] }>().events.map((e) => e.code);
    expect(codes).toContain('INITIAL_UPDATE');
    expect(events.body).not.toContain('access_token');
    const initial = await get(viewer, `/dashboard/api/connections/${id()}/events?code=INITIAL_UPDATE`);
    expect(initial.json<{ events: { code: string }[] }>().events.every((e) => e.code === 'INITIAL_UPDATE')).toBe(true);
    const jobs = await get(viewer, `/dashboard/api/connections/${id()}/write-jobs`);
    expect(jobs.json()).toEqual({ jobs: [], next_cursor: null });
  });

  it('never gives a session a connection’s access token back, here or on the API’s own routes', async () => {
    const answer = await get(viewer, `/dashboard/api/connections/${id()}`);
    expect(answer.json<{ connection: { id: string; access_token: string } }>().connection).toMatchObject({ id: id(), access_token: 'lpat_…' });
    for (const url of [
      '/versioned/connections',
      '/versioned/connections?status=any&limit=10',
      `/versioned/connections/access_token?access_token=${synced.token}`,
    ]) {
      const read = await t.app.inject({ method: 'GET', url, headers: { cookie: viewer.cookie, 'x-service-version': VERSION } });
      expect(read.statusCode, url).toBe(200);
      expect(read.body, url).not.toContain(synced.token);
      expect(read.body, url).toContain('lpat_…');
    }
    // An API client still reads it, as the spec says.
    const client = await t.app.inject({ method: 'GET', url: '/versioned/connections', headers: clientHeaders(t.org) });
    expect(client.body).toContain(synced.token);
  });
});
