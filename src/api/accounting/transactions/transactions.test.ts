/**
 * GET /accounting/transactions and /:id through the real server: SANDBOX's stored payments, expenses, deposits,
 * transfers, journal entries and sales receipts as accounting transactions, each pointing at its document; QuickBooks
 * Online's through its stand-in; a platform without them refused; auth, other organisations and malformed input refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, type TestApp } from '../../../../test/support/app.ts';
import { oauthConnection } from '../../../../test/support/oauth-connection.ts';
import type { SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import { startReadApp, type ReadApp } from '../../../../test/support/read-app.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../../../model/object-types.ts';
import { MONEY_DOCUMENTS } from './view.ts';

type Json = Record<string, unknown>;

let r: ReadApp;
let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  r = await startReadApp('user_transactions_size_200');
  ({ t, c } = r);
}, 120_000);
afterAll(async () => {
  await r.close();
});

async function allTransactions(token = c.token): Promise<Json[]> {
  const found: Json[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = await r.ok(`/accounting/transactions?limit=200${cursor === null ? '' : `&cursor=${cursor}`}`, token);
    found.push(...(page.transactions as Json[]));
    cursor = page.next_cursor as string | null;
  } while (cursor !== null);
  return found;
}

async function storedCount(connectionId: string): Promise<Record<string, number>> {
  const rows = await t.db.pool.query<{ object_type: string; n: number }>(
    `SELECT object_type, count(*)::int AS n FROM records WHERE connection_id = $1 AND object_type = ANY($2) AND deleted_at IS NULL GROUP BY object_type`,
    [connectionId, [...MONEY_DOCUMENTS]],
  );
  return Object.fromEntries(rows.rows.map((row) => [row.object_type, row.n]));
}

const countByType = (transactions: Json[]): Record<string, number> =>
  transactions.reduce<Record<string, number>>(
    (counts, tx) => ({ ...counts, [String(tx.rutter_transaction_type)]: (counts[String(tx.rutter_transaction_type)] ?? 0) + 1 }),
    {},
  );

describe('GET /accounting/transactions', () => {
  it('lists every stored document that moves money once, most recently synced first, each pointing at its document', async () => {
    const transactions = await allTransactions();
    expect(countByType(transactions)).toEqual(await storedCount(c.connection.id));
    expect(Object.keys(countByType(transactions)).length).toBeGreaterThanOrEqual(5);
    expect(new Set(transactions.map((tx) => tx.id)).size).toBe(transactions.length);
    const synced = transactions.map((tx) => Date.parse(String(tx.last_synced_at)));
    expect(synced).toEqual([...synced].sort((a, b) => b - a));
    for (const type of MONEY_DOCUMENTS) {
      const tx = transactions.find((candidate) => candidate.rutter_transaction_type === type);
      if (tx === undefined) continue;
      const names = OBJECT_TYPES[type as UnifiedObjectType];
      const document = (await r.ok(`${names.path}/${String(tx.rutter_transaction_id)}`))[names.singular] as Json;
      expect(tx, type).toMatchObject({
        id: document.id,
        platform_id: document.platform_id,
        transaction_date: String(document.transaction_date ?? document.issue_date).slice(0, 10),
        last_synced_at: document.last_synced_at,
        platform_url: document.platform_url ?? null,
      });
      expect(tx.platform_data).toBeUndefined();
    }
  });

  it('fetches one by service id or platform id, with platform_data when asked', async () => {
    const [tx] = (await r.ok('/accounting/transactions?limit=1&expand=platform_data')).transactions as Json[];
    expect(tx?.platform_data).toBeTypeOf('object');
    const fetched = (await r.ok(`/accounting/transactions/${String(tx?.id)}`)).transaction as Json;
    const { platform_data: _raw, ...withoutRaw } = tx ?? {};
    expect(fetched).toEqual(withoutRaw);
    const byPlatform = await r.ok(`/accounting/transactions/${encodeURIComponent(String(tx?.platform_id))}?id_type=platform&expand=platform_data`);
    expect(byPlatform.transaction).toEqual(tx);
  });

  it("serves QuickBooks Online's stored documents through its stand-in", async () => {
    const { connection, token } = await r.quickbooks();
    const transactions = await allTransactions(token);
    expect(transactions.length).toBeGreaterThan(0);
    expect(countByType(transactions)).toEqual(await storedCount(connection.id));
    expect(r.qbo.violations).toEqual([]);
  });

  it('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM on a platform without accounting documents', async () => {
    const { connection, token } = await oauthConnection(t, {
      platform: 'STRIPE',
      app: { clientId: 'ca_transactions', clientSecret: 'sk_transactions', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' },
      tokens: { accessToken: 'sk_test_transactions', refreshToken: null, expiresAt: null, tenantId: null },
      identity: { storeUniqueId: 'acct_transactions', storeName: 'Stripe transactions' },
    });
    await t.db.pool.query('UPDATE connections SET ready_at = now() WHERE id = $1', [connection.id]);
    for (const path of ['/accounting/transactions', '/accounting/transactions/2f1c0d6e-8b1a-4c47-9a4e-0d8b7b0e6a11']) {
      const response = await r.get(path, token);
      expect(response.statusCode, path).toBe(404);
      expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
    }
  });

  it("refuses missing auth; another organisation's token and ids answer as unknown; malformed input is a 400 naming the field", async () => {
    const [tx] = (await r.ok('/accounting/transactions?limit=1')).transactions as Json[];
    expect((await r.get('/accounting/transactions', c.token, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    const other = await t.newOrg('Transactions other');
    expect(errorBody(await r.get('/accounting/transactions', c.token, clientHeaders(other))).error_code).toBe('INVALID_CREDENTIALS');
    // Another connection's document (QuickBooks') is unknown on this one, as an id never issued is.
    const { token } = await r.quickbooks();
    for (const id of [String(tx?.id), '2f1c0d6e-8b1a-4c47-9a4e-0d8b7b0e6a11']) {
      const unknown = await r.get(`/accounting/transactions/${id}`, token);
      expect(unknown.statusCode, id).toBe(410);
      expect(errorBody(unknown).error_code).toBe('RESOURCE_NOT_FOUND');
    }
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      ['updated_at_min=yesterday', 'updated_at_min'],
      ['filter=amount%20%3E%201', 'filter'],
    ] as const) {
      const refused = await r.get(`/accounting/transactions?${query}`, c.token);
      expect(refused.statusCode, query).toBe(400);
      expect(errorBody(refused).error_metadata, query).toMatchObject({ field });
    }
    expect((await r.get(`/accounting/transactions/${String(tx?.id)}?id_type=rutter`, c.token)).statusCode).toBe(400);
  });
});
