/**
 * The client against a started service: a real app listening on a port (test/support/app.ts), a synced SANDBOX
 * connection, requests made by the client through fetch.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';
import { API_VERSIONS as SERVICE_VERSIONS } from '../../../src/http/versioning.ts';
import { API_VERSIONS, LedgerportError, createLedgerportApi, data, idempotencyKey, items, pages, type LedgerportApi } from './index.ts';

let t: TestApp;
let baseUrl: string;
let lp: LedgerportApi;
let synced: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const { client_id, client_secret } = t.org.credentials.sandbox;
  lp = createLedgerportApi({ baseUrl, clientId: client_id, clientSecret: client_secret });
  synced = await syncedSandboxConnection(t, 'user_client_package');
});

afterAll(async () => {
  await t.close();
});

async function storedCount(type: string): Promise<number> {
  const result = await t.db.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL',
    [synced.connection.id, type],
  );
  return result.rows[0]?.n ?? 0;
}

describe('@ledgerport/client', () => {
  it('knows the versions the service publishes, the newest first', () => {
    expect(API_VERSIONS).toEqual(SERVICE_VERSIONS);
    expect(API_VERSIONS[0]).toBe(VERSION);
  });

  it('sends the credentials and version set once: a typed read of the connection', async () => {
    const answer = await data(lp.GET('/versioned/connections/access_token', { params: { query: { access_token: synced.token } } }));
    expect(answer.connection.id).toBe(synced.connection.id);
    expect(answer.connection.platform).toBe('SANDBOX');
  });

  it('walks every page of a list with the cursor, each record once', async () => {
    const total = await storedCount('bill');
    expect(total).toBeGreaterThan(3);
    const seen: string[] = [];
    let pageCount = 0;
    const billPages = pages((cursor) => {
      pageCount += 1;
      return data(lp.GET('/versioned/accounting/bills', { params: { query: { access_token: synced.token, limit: 3, cursor } } }));
    });
    for await (const bill of items(billPages, 'bills')) seen.push(bill.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(total);
    // A page is read one row past its limit, so the last full page already answers next_cursor null: no empty page.
    expect(pageCount).toBe(Math.ceil(total / 3));
  });

  it('throws a LedgerportError with status, code and request id', async () => {
    const error = await lp.GET('/versioned/accounting/bills', { params: { query: { access_token: synced.token, cursor: 'not a cursor' } } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LedgerportError);
    const failure = error as LedgerportError;
    expect(failure).toMatchObject({ status: 400, code: 'INVALID_CURSOR', type: 'INVALID_REQUEST' });
    expect(failure.requestId).toMatch(/\S/);
    expect(failure.message).not.toBe('');
  });

  it('throws INVALID_CREDENTIALS with a wrong secret, and UNSUPPORTED_VERSION with a version the service does not publish', async () => {
    const wrong = createLedgerportApi({ baseUrl, clientId: t.org.credentials.sandbox.client_id, clientSecret: 'wrong' });
    await expect(wrong.GET('/versioned/connections', {})).rejects.toMatchObject({
      name: 'LedgerportError',
      status: 401,
      code: 'INVALID_CREDENTIALS',
    });
    const unpublished = createLedgerportApi({
      baseUrl,
      clientId: t.org.credentials.sandbox.client_id,
      clientSecret: t.org.credentials.sandbox.client_secret,
      // A caller without the types' help (JavaScript): the service's answer is still a LedgerportError.
      version: '1999-01-01' as (typeof API_VERSIONS)[number],
    });
    await expect(unpublished.GET('/versioned/connections', {})).rejects.toMatchObject({ status: 400, code: 'UNSUPPORTED_VERSION' });
  });

  it('replays a write sent again with the same idempotency key, and refuses the key with another body', async () => {
    const key = idempotencyKey();
    const send = (objectTypes: string[]) =>
      lp.POST('/versioned/connections/incremental_sync', {
        params: { query: { access_token: synced.token }, header: { 'idempotency-key': key } },
        body: { object_types: objectTypes },
      });
    const first = await send(['BILL']);
    const again = await send(['BILL']);
    expect(again.data).toEqual(first.data);
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    await expect(send(['ACCOUNT'])).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_MISMATCH' });
  });
});
