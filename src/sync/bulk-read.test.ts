/**
 * An export's result cursor at rest (migration 0037): a platform's export whose cursor holds its link to the results
 * (as SHOPIFY's bearer URL does) leaves that link neither in sync_exports nor in the page token the runner saves, and
 * the next page still gets the cursor the platform gave. Against the real database, with a stand-in export.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import { createConnection } from '../connections/connections.ts';
import type { BulkRead, ConnectorContext, ObjectHandler } from '../platforms/connector.ts';
import { pageReader } from './bulk-read.ts';

const LINK = 'https://storage.example/results/export-7.jsonl?signature=bearer-0123456789';
const cursorAt = (offset: number): string => JSON.stringify({ url: LINK, offset });

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('an export read', () => {
  it("keeps the platform's result link sealed in sync_exports and in the saved page tokens", async () => {
    const { connection } = await createConnection(
      t.db.pool,
      t.services.cipher,
      { organizationId: t.org.organization.id, environment: 'sandbox' },
      {
        platform: 'SANDBOX',
        name: null,
        credentials: { basic_username: 'user_ann', basic_password: 'pass_good' },
        identity: { storeUniqueId: 'ann', storeName: null },
        syncConfig: null,
        scope: null,
        marketplace: null,
        redirectUrl: null,
      },
    );
    const asked: (string | null)[] = [];
    const bulk: BulkRead = {
      startExport: () => Promise.resolve('export-7'),
      pollExport: () => Promise.resolve({ status: 'ready', resultCursor: cursorAt(0) }),
      readExportPage: (_ctx, _id, cursor) => {
        asked.push(cursor);
        return Promise.resolve({ records: [], nextCursor: cursor === cursorAt(0) ? cursorAt(100) : null });
      },
    };
    const handler: ObjectHandler = { read: () => Promise.reject(new Error('not a paged read')), bulk, map: () => ({}) };
    const ctx: ConnectorContext = {
      http: { request: () => Promise.reject(new Error('no call')) },
      signal: new AbortController().signal,
      environment: 'sandbox',
      connectionId: connection.id,
      credentials: {},
      tokens: null,
      oauth: null,
      ref: () => null,
      platformIdOf: () => Promise.resolve(null),
    };
    const read = pageReader(t.db.pool, t.services.cipher, ctx, handler, {
      connectionId: connection.id,
      objectType: 'customer',
      runId: randomUUID(),
      batchIndex: 0,
    });

    const first = await read({ since: null, window: null, pageToken: null });
    const stored = await t.db.pool.query<{ row: string }>('SELECT row_to_json(e)::text AS row FROM sync_exports e WHERE connection_id = $1', [
      connection.id,
    ]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.row).not.toContain('storage.example');
    expect(stored.rows[0]?.row).not.toContain(Buffer.from('storage.example').toString('hex'));
    expect(first.nextPageToken).not.toBeNull();
    expect(first.nextPageToken).not.toContain('storage.example');

    const second = await read({ since: null, window: null, pageToken: first.nextPageToken });
    expect(second.nextPageToken).toBeNull();
    expect(asked).toEqual([cursorAt(0), cursorAt(100)]);
  });
});
