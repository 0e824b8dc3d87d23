/**
 * The sync engine against SANDBOX: every object type stored, incremental syncs
 * after the sandbox's time moved store exactly its changes and fire exactly
 * the matching events (checked against the sandbox's own change log), an
 * unchanged resync writes nothing, deletions reach /events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenOf, createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { OBJECT_TYPES, UNIFIED_OBJECT_TYPES, type UnifiedObjectType } from '../model/object-types.ts';
import { connectorContext } from '../platforms/context.ts';
import { clientHeaders, json, startTestApp, type TestApp } from '../../test/support/app.ts';
import { expectedEvents, platformSnapshot, storedSnapshot, type Snapshot } from '../../test/support/books.ts';
import { requestSync } from './requests.ts';
import { runSync } from './runner.ts';

const USER = 'user_engine_size_2000';
let t: TestApp;
let connection: ConnectionRecord;
const credentials = { basic_username: USER, basic_password: 'pass_good' };

beforeAll(async () => {
  t = await startTestApp();
  const probe = connectorContext({
    connector: t.sandbox.connector,
    connectionId: 'probe',
    credentials,
    tokens: null,
    environment: 'sandbox',
    db: t.db.pool,
  });
  const identity = await t.sandbox.connector.identify(probe);
  ({ connection } = await createConnection(
    t.db.pool,
    t.services.cipher,
    { organizationId: t.org.organization.id, environment: 'sandbox' },
    {
      platform: 'SANDBOX',
      name: null,
      credentials,
      identity,
      syncConfig: { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  ));
}, 120_000);
afterAll(async () => {
  await t.close();
});

const ctx = () =>
  connectorContext({ connector: t.sandbox.connector, connectionId: connection.id, credentials, tokens: null, environment: 'sandbox', db: t.db.pool });

async function sync(kind: 'initial' | 'incremental'): Promise<void> {
  const run = await requestSync(t.db.pool, t.services.jobs, connection.id, { kind, trigger: 'api', details: {} });
  expect(await runSync(t.services, run.id, new AbortController().signal)).toBe('completed');
}

async function entityEvents(after: Date): Promise<string[]> {
  const result = await t.db.pool.query<{ code: string; type: string; payload: Record<string, unknown> }>(
    `SELECT code, type, payload FROM events WHERE connection_id = $1 AND created_at > $2 AND type <> 'CONNECTION'`,
    [connection.id, after],
  );
  return result.rows
    .map((row) => {
      const type = row.type.toLowerCase() as UnifiedObjectType;
      return `${row.code} ${type}:${(row.payload[OBJECT_TYPES[type].singular] as { platform_id: string }).platform_id}`;
    })
    .sort();
}

async function now(): Promise<Date> {
  return (await t.db.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]?.now ?? new Date();
}

let books: Snapshot = new Map();

describe('syncing SANDBOX', () => {
  it('the initial sync stores every object type, equal to the books', async () => {
    await sync('initial');
    books = await platformSnapshot(t.sandbox.connector, ctx());
    expect(await storedSnapshot(t.db.pool, connection.id)).toEqual(books);
    const types = await t.db.pool.query<{ object_type: string }>('SELECT DISTINCT object_type FROM records WHERE connection_id = $1', [
      connection.id,
    ]);
    // Every type SANDBOX serves: all but disputes (its card gateway has none) and subscriptions (its web shop sells none).
    expect(types.rows.map((r) => r.object_type).sort()).toEqual(
      UNIFIED_OBJECT_TYPES.filter((type) => type !== 'dispute' && type !== 'subscription').sort(),
    );
  });

  it('an unchanged resync writes no row and fires no event', async () => {
    const before = await t.db.pool.query<{ v: string }>(`SELECT string_agg(xmin::text, ',' ORDER BY id) AS v FROM records WHERE connection_id = $1`, [
      connection.id,
    ]);
    const marker = await now();
    await sync('incremental');
    const after = await t.db.pool.query<{ v: string }>(`SELECT string_agg(xmin::text, ',' ORDER BY id) AS v FROM records WHERE connection_id = $1`, [
      connection.id,
    ]);
    expect(after.rows[0]?.v).toBe(before.rows[0]?.v);
    expect(await entityEvents(marker)).toEqual([]);
  });

  it('after time moves, an incremental sync stores exactly the changes and fires exactly the matching events', async () => {
    for (let round = 0; round < 3; round++) {
      const state = await t.sandbox.platform.advance(USER, 2);
      const changes = await t.db.pool.query<{ object_type: string; platform_id: string; op: string }>(
        `SELECT DISTINCT object_type, platform_id, op FROM sandbox_platform.change_log WHERE account_id = $1 AND tick > $2`,
        [state.id, state.tick - 2],
      );
      expect(changes.rows.length).toBeGreaterThan(0);
      const marker = await now();
      await sync('incremental');
      const after = await platformSnapshot(t.sandbox.connector, ctx());
      expect(await storedSnapshot(t.db.pool, connection.id)).toEqual(after);
      const fired = await entityEvents(marker);
      expect(fired).toEqual(expectedEvents(books, after));
      // Every event names a record of the sandbox's change log; every created or deleted record there has its event.
      const logged = new Set(changes.rows.map((c) => `${c.object_type}:${c.platform_id}`));
      for (const event of fired) expect(logged.has(event.split(' ')[1] ?? '')).toBe(true);
      for (const change of changes.rows.filter((c) => c.op !== 'updated')) {
        const key = `${change.object_type}:${change.platform_id}`;
        const createdAndGone = change.op === 'created' && !after.has(key) && !books.has(key);
        if (!createdAndGone)
          expect(
            fired.some((e) => e.endsWith(` ${key}`)),
            `${change.op} ${key}`,
          ).toBe(true);
      }
      books = after;
    }
  });

  it("statements sync like balance sheets: a day of business updates this month's and fires their entity webhooks", async () => {
    const marker = await now();
    await t.sandbox.platform.advance(USER, 1);
    await sync('incremental');
    const fired = await entityEvents(marker);
    for (const code of [
      'BALANCE_SHEET_UPDATED balance_sheet:BS-',
      'INCOME_STATEMENT_UPDATED income_statement:IS-',
      'CASH_FLOW_STATEMENT_UPDATED cash_flow_statement:CF-',
    ]) {
      expect(
        fired.some((e) => e.startsWith(code)),
        code,
      ).toBe(true);
    }
    const payload = (
      await t.db.pool.query<{ payload: Record<string, unknown> }>(
        `SELECT payload FROM events WHERE connection_id = $1 AND code = 'CASH_FLOW_STATEMENT_UPDATED' ORDER BY created_at DESC LIMIT 1`,
        [connection.id],
      )
    ).rows[0]?.payload;
    expect(payload).toMatchObject({
      type: 'CASH_FLOW_STATEMENT',
      code: 'CASH_FLOW_STATEMENT_UPDATED',
      cash_flow: { ending_balance: expect.any(Number) as unknown },
    });
    books = await platformSnapshot(t.sandbox.connector, ctx());
  });

  it('syncConfig.entities names them INCOME_STATEMENT and CASH_FLOW_STATEMENT; the status counts what is synced', async () => {
    const other = { basic_username: 'user_engine_statements_size_300', basic_password: 'pass_good' };
    const probe = connectorContext({
      connector: t.sandbox.connector,
      connectionId: 'probe',
      credentials: other,
      tokens: null,
      environment: 'sandbox',
      db: t.db.pool,
    });
    const { connection: narrow } = await createConnection(
      t.db.pool,
      t.services.cipher,
      { organizationId: t.org.organization.id, environment: 'sandbox' },
      {
        platform: 'SANDBOX',
        name: 'statements only',
        credentials: other,
        identity: await t.sandbox.connector.identify(probe),
        syncConfig: { historical_months: 0, entities: ['INCOME_STATEMENT', 'CASH_FLOW_STATEMENT'] },
        scope: null,
        marketplace: null,
        redirectUrl: null,
      },
    );
    const run = await requestSync(t.db.pool, t.services.jobs, narrow.id, { kind: 'initial', trigger: 'api', details: {} });
    expect(await runSync(t.services, run.id, new AbortController().signal)).toBe('completed');
    const types = await t.db.pool.query<{ object_type: string }>('SELECT DISTINCT object_type FROM records WHERE connection_id = $1 ORDER BY 1', [
      narrow.id,
    ]);
    expect(types.rows.map((r) => r.object_type)).toEqual(['cash_flow_statement', 'income_statement']);
    const months = (
      await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM records WHERE connection_id = $1 AND object_type = 'income_statement'`, [
        narrow.id,
      ])
    ).rows[0]?.n;
    const response = await t.app.inject({
      method: 'GET',
      url: `/versioned/connections/status?access_token=${accessTokenOf(t.services.cipher, narrow)}`,
      headers: clientHeaders(t.org),
    });
    const status = json(response).status as { historical_sync_status: Record<string, unknown> };
    expect(status.historical_sync_status).toMatchObject({
      synced_income_statements_count: months,
      synced_cash_flows_count: months,
      synced_balance_sheets_count: null,
    });
    expect(months).toBeGreaterThan(12);
  });

  it('deletions show up in /events and as <ENTITY>_DELETED', async () => {
    const deleted = await t.db.pool.query<{ object_type: string; platform_id: string }>(
      `SELECT object_type, platform_id FROM records WHERE connection_id = $1 AND deleted_at IS NOT NULL`,
      [connection.id],
    );
    expect(deleted.rows.length).toBeGreaterThan(0);
    const token = accessTokenOf(t.services.cipher, connection);
    const response = await t.app.inject({
      method: 'GET',
      url: `/versioned/events?type=object_deleted&access_token=${token}`,
      headers: clientHeaders(t.org),
    });
    const listed = (json(response).events as { resource: string; object: { platform_id: string } }[])
      .map((e) => `${e.resource}:${e.object.platform_id}`)
      .sort();
    const wanted = deleted.rows.map((r) => `${OBJECT_TYPES[r.object_type as UnifiedObjectType].plural}:${r.platform_id}`).sort();
    expect(listed).toEqual(wanted);
    const webhooks = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE connection_id = $1 AND code LIKE '%\\_DELETED'`,
      [connection.id],
    );
    expect(webhooks.rows[0]?.n).toBe(deleted.rows.length);
  });
});
