import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import { PlatformError } from '../../../src/platforms/errors.ts';
import { createPlatformHttp, type AttemptEvent } from '../../../src/platforms/http.ts';
import { createSandboxConnector, httpTransport, inProcessTransport, SandboxPlatform } from './index.ts';
import { startSandboxServer, type SandboxServer } from './server.ts';
import { readAll, testContext, writeContext } from './testkit.ts';

let db: TestDatabase;
let platform: SandboxPlatform;
let server: SandboxServer;

beforeAll(async () => {
  db = await createTestDatabase();
  platform = new SandboxPlatform(db.pool, { asOf: '2025-06-15', tickIntervalMs: 0, defaultSize: 1_500, retryAfterSeconds: 0 });
  server = await startSandboxServer(platform);
});
afterAll(async () => {
  await server.close();
  await db.close();
});

const attempts: AttemptEvent[] = [];
const http = createPlatformHttp({ maxAttempts: 4, baseDelayMs: 1, onAttempt: (event) => attempts.push(event) });
const overHttp = () => createSandboxConnector({ transport: httpTransport(server.url) });
const inProcess = createSandboxConnector({ transport: inProcessTransport(() => platform) });
const login = (username: string, password = 'pass_good') => testContext({ basic_username: username, basic_password: password }, http);

describe('sandbox over HTTP', () => {
  it('serves the same records as the in-process transport', async () => {
    const viaHttp = await readAll(overHttp(), login('user_good'));
    const direct = await readAll(inProcess, login('user_good'));
    expect(viaHttp.records.length).toBeGreaterThan(1_000);
    expect(JSON.stringify(viaHttp.records)).toBe(JSON.stringify(direct.records));
    expect(viaHttp.cursors).toEqual(direct.cursors);
    expect(await overHttp().identify(login('user_good'))).toEqual(await inProcess.identify(login('user_good')));
  });

  it('answers real HTTP statuses: 401, 404, 429 with Retry-After, 402', async () => {
    const auth = (user: string, password = 'pass_good') => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
    expect((await fetch(`${server.url}/v1/Me`, { headers: auth('user_good', 'wrong') })).status).toBe(401);
    expect((await fetch(`${server.url}/v1/Bills/BILL-999999`, { headers: auth('user_good') })).status).toBe(404);
    const statuses: (number | string | null)[] = [];
    for (let n = 0; n < 3; n++) {
      const res = await fetch(`${server.url}/v1/Me`, { headers: auth('user_rate_limited') });
      statuses.push(res.status, res.headers.get('retry-after'));
    }
    expect(statuses).toEqual([200, null, 200, null, 429, '0']);
    const billing = await fetch(`${server.url}/v1/Vendors`, {
      method: 'POST',
      headers: { ...auth('user_billing'), 'content-type': 'application/json' },
      body: '{"DisplayName":"X"}',
    });
    expect(billing.status).toBe(402);
  });

  it('goes through the shared HTTP client: 429s are retried after Retry-After, errors are classified', async () => {
    attempts.length = 0;
    const records = await readAll(overHttp(), login('user_rate_limited'), {}, ['vendor', 'bill', 'invoice', 'account']);
    expect(records.records.length).toBeGreaterThan(0);
    expect(attempts.some((a) => a.status === 429 && a.retryInMs === 0)).toBe(true);
    const bill = overHttp().objects.bill?.handler;
    if (bill?.create === undefined) throw new Error('bills are writable');
    const input = {
      vendor_id: 'vendor:VEN-000001',
      issue_date: '2025-06-16',
      document_number: 'VI-000001',
      line_items: [{ account_id: 'account:ACC-000030', total_amount: 10 }],
    };
    const error = await bill.create(writeContext(login('user_good'), 'http-dup'), input).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error instanceof PlatformError ? [error.kind, error.duplicateProperty, error.httpStatus] : error).toEqual([
      'duplicate',
      'document_number',
      400,
    ]);
    const denied = await overHttp()
      .identify(login('user_good', 'bad'))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(denied instanceof PlatformError ? denied.kind : denied).toBe('unauthorized');
  });
});
