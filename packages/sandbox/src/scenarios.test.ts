import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import type { ConnectorContext } from '../../../src/platforms/connector.ts';
import { PlatformError } from '../../../src/platforms/errors.ts';
import { DEFAULT_RETRY_POLICY } from '../../../src/platforms/http.ts';
import { createSandboxConnector, inProcessTransport, SandboxPlatform } from './index.ts';
import { SCENARIOS } from './scenarios.ts';
import { readAll, testContext, writeContext } from './testkit.ts';

let db: TestDatabase;
let platform: SandboxPlatform;

beforeAll(async () => {
  db = await createTestDatabase();
  platform = new SandboxPlatform(db.pool, {
    asOf: '2025-06-15',
    tickIntervalMs: 0,
    defaultSize: 600,
    slowPageDelayMs: 400,
    retryAfterSeconds: 2,
    rateLimitEvery: 3,
    errorEvery: 4,
  });
});
afterAll(async () => {
  await db.close();
});

// These tests watch the platform's own answers, so this connector's transport does not retry.
const NO_RETRIES = { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 };
const connector = createSandboxConnector({ transport: inProcessTransport(() => platform, NO_RETRIES) });
/** What syncs and writes use: the in-process transport with the shared retry rule. */
const retrying = createSandboxConnector({ transport: inProcessTransport(() => platform) });
const login = (username: string, password = 'pass_good') => testContext({ basic_username: username, basic_password: password });
const vendors = (ctx: ConnectorContext, since: string | null = null) => {
  const handler = connector.objects.vendor?.handler;
  if (handler === undefined) throw new Error('no vendor handler');
  return handler.read(ctx, { since, window: null, pageToken: null });
};

async function outcome(promise: Promise<unknown>): Promise<PlatformError | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
}
const kind = async (promise: Promise<unknown>) => {
  const result = await outcome(promise);
  return result === 'ok' ? 'ok' : result.kind;
};

const billInput = (documentNumber: string) => ({
  vendor_id: 'vendor:VEN-000001',
  issue_date: '2025-06-16T00:00:00Z',
  document_number: documentNumber,
  line_items: [{ account_id: 'account:ACC-000030', total_amount: 99 }],
});

describe('sandbox scenarios', () => {
  it('documents a scenario for each behaviour', () => {
    expect(SCENARIOS.map((s) => s.scenario).sort()).toEqual([
      'billing_issue',
      'deletes_after_sync',
      'failing_after_sync',
      'flaky',
      'healthy',
      'link_error',
      'rate_limited',
      'revoked_after_sync',
      'slow_initial_sync',
      'suspended_after_sync',
      'write_daily_limit',
      'write_forbidden',
      'write_invalid',
      'write_throttled',
      'write_unavailable',
    ]);
  });

  it('user_good with pass_good is healthy; a wrong password or an unknown user is refused as unauthorized', async () => {
    expect(await connector.identify(login('user_good'))).toMatchObject({ storeUniqueId: 'sandbox:user_good' });
    const wrong = await outcome(connector.identify(login('user_good', 'nope')));
    expect(wrong === 'ok' ? wrong : [wrong.kind, wrong.httpStatus, wrong.toServiceError().code]).toEqual([
      'unauthorized',
      401,
      'PLATFORM_UNAUTHORIZED',
    ]);
    expect(await kind(connector.identify(login('someone')))).toBe('unauthorized');
  });

  it('gives every user_* account its own healthy books, sized by _size_<N>', async () => {
    const a = await connector.identify(login('user_alpha'));
    const b = await connector.identify(login('user_beta'));
    expect(a.storeUniqueId).not.toBe(b.storeUniqueId);
    expect(a.storeName).not.toBe(b.storeName);
    // Attachments, statements, employees, exchange rates and the web shop's gateway transactions come on top of the size.
    const sized = await readAll(connector, login('user_sized_size_1200'));
    expect(sized.records.length).toBeGreaterThanOrEqual(1200);
    expect(sized.records.length).toBeLessThan(1200 * 1.4);
  });

  it('user_rate_limited answers every 3rd call with 429 and Retry-After', async () => {
    const ctx = login('user_rate_limited');
    const results: (PlatformError | 'ok')[] = [];
    for (let n = 0; n < 6; n++) results.push(await outcome(vendors(ctx)));
    expect(results.map((r) => (r === 'ok' ? 'ok' : r.kind))).toEqual(['ok', 'ok', 'rate_limited', 'ok', 'ok', 'rate_limited']);
    const limited = results[2];
    expect(limited instanceof PlatformError ? [limited.httpStatus, limited.retryAfterMs, limited.toServiceError().code] : null).toEqual([
      429,
      2_000,
      'PLATFORM_RATE_LIMITED',
    ]);
  });

  it('user_flaky answers every 4th call with 5xx; a failing write is applied first, and findCreated and the key recover it', async () => {
    const ctx = login('user_flaky');
    const kinds = [];
    for (let n = 0; n < 8; n++) {
      const result = await outcome(vendors(ctx));
      kinds.push(result === 'ok' ? 'ok' : `${result.kind}:${String(result.httpStatus)}`);
    }
    expect(kinds).toEqual(['ok', 'ok', 'ok', 'server:500', 'ok', 'ok', 'ok', 'server:503']);
    // Calls 9-11 pass; call 12 is the 3rd failure (odd): a write there is applied, then answers 500.
    for (let n = 0; n < 3; n++) await vendors(ctx);
    const bill = connector.objects.bill?.handler;
    if (bill?.create === undefined || bill.findCreated === undefined) throw new Error('bills are writable');
    const failed = await outcome(bill.create(writeContext(ctx, 'flaky-1'), billInput('FLAKY-1')));
    expect(failed === 'ok' ? 'ok' : [failed.kind, failed.indeterminate]).toEqual(['server', true]);
    const found = await bill.findCreated(writeContext(ctx, 'flaky-1'), billInput('FLAKY-1'));
    expect(found?.raw.DocNumber).toBe('FLAKY-1');
    const retried = await bill.create(writeContext(ctx, 'flaky-1'), billInput('FLAKY-1'));
    expect(retried.platformId).toBe(found?.platformId);
  });

  it('the default in-process transport retries 429s (after Retry-After) and 5xx of reads like the HTTP client', async () => {
    const ctx = login('user_rate_limited');
    const handler = retrying.objects.vendor?.handler;
    if (handler === undefined) throw new Error('no vendor handler');
    const started = performance.now();
    for (let n = 0; n < 3; n++) await handler.read(ctx, { since: null, window: null, pageToken: null });
    // One of the three calls met a 429 and waited its Retry-After (2 s) before the retry succeeded.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
    const flaky = login('user_flaky');
    const results = [];
    for (let n = 0; n < 8; n++)
      results.push(await outcome(retrying.objects.vendor?.handler.read(flaky, { since: null, window: null, pageToken: null }) ?? Promise.resolve()));
    expect(results).toEqual(Array(8).fill('ok'));
  });

  it('user_revoked syncs once; its first incremental read and every call after it answer 401', async () => {
    const ctx = login('user_revoked');
    const initial = await readAll(connector, ctx, {}, ['vendor', 'bill']);
    expect(initial.records.length).toBeGreaterThan(0);
    const incremental = await outcome(readAll(connector, ctx, initial.cursors, ['vendor']));
    expect(incremental === 'ok' ? 'ok' : [incremental.kind, incremental.httpStatus]).toEqual(['unauthorized', 401]);
    expect(await kind(vendors(ctx))).toBe('unauthorized');
    expect(await kind(connector.identify(ctx))).toBe('unauthorized');
  });

  it('user_failing syncs once; every incremental read after it answers 503 with a Retry-After too long to wait out', async () => {
    const ctx = login('user_failing');
    const initial = await readAll(retrying, ctx, {}, ['vendor']);
    expect(initial.records.length).toBeGreaterThan(0);
    // The retrying transport gives up at once: the platform asks for 300 s, more than a client waits in place.
    const failed = await outcome(readAll(retrying, ctx, initial.cursors, ['vendor']));
    expect(failed === 'ok' ? 'ok' : [failed.kind, failed.httpStatus, failed.retryAfterMs, failed.retryable, failed.toServiceError().code]).toEqual([
      'server',
      503,
      300_000,
      true,
      'PLATFORM_ERROR',
    ]);
    expect(await kind(connector.identify(ctx))).toBe('ok');
  });

  it('user_deletes: each incremental read of bills reports a bill the business deleted since, once', async () => {
    const ctx = login('user_deletes');
    const initial = await readAll(connector, ctx, {}, ['bill']);
    const first = await readAll(connector, ctx, initial.cursors, ['bill']);
    expect(first.deleted).toHaveLength(1);
    const gone = first.deleted[0]?.id;
    expect(initial.records.map((r) => r.raw.Id)).toContain(gone);
    const second = await readAll(connector, ctx, first.cursors, ['bill']);
    expect(second.deleted).toHaveLength(1);
    expect(second.deleted[0]?.id).not.toBe(gone);
    // Deleted on the platform: a full read no longer lists them.
    const now = (await readAll(connector, ctx, {}, ['bill'])).records.map((r) => r.raw.Id);
    expect(now).not.toContain(gone);
    expect(now).toHaveLength(initial.records.length - 2);
  });

  it('user_slow waits before each page of a full read; incremental reads are quick', async () => {
    const ctx = login('user_slow');
    await connector.identify(ctx);
    let started = performance.now();
    const page = await vendors(ctx);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    started = performance.now();
    await vendors(ctx, page.nextSince ?? null);
    expect(performance.now() - started).toBeLessThan(390);
  });

  it('user_billing reads fine but every write fails with a billing problem', async () => {
    const ctx = login('user_billing');
    expect(await kind(vendors(ctx))).toBe('ok');
    const bill = connector.objects.bill?.handler;
    if (bill?.create === undefined) throw new Error('bills are writable');
    const failed = await outcome(bill.create(writeContext(ctx, 'billing-1'), billInput('BILLING-1')));
    expect(failed === 'ok' ? 'ok' : [failed.kind, failed.httpStatus, failed.toServiceError().code]).toEqual([
      'billing',
      402,
      'PLATFORM_BILLING_ISSUE',
    ]);
  });

  it.each([
    ['user_write_invalid', 400, 'PLATFORM_BAD_REQUEST', 450],
    ['user_write_throttled', 429, 'PLATFORM_RATE_LIMITED', 452],
    ['user_write_daily_limit', 429, 'PLATFORM_RATE_LIMITED', 452],
    ['user_write_unavailable', 503, 'PLATFORM_ERROR', 550],
  ] as const)('%s reads fine; every write fails with %i, our %s (%i), and nothing is applied', async (username, httpStatus, code, status) => {
    const ctx = login(username);
    expect(await kind(vendors(ctx))).toBe('ok');
    const bill = connector.objects.bill?.handler;
    if (bill?.create === undefined) throw new Error('bills are writable');
    const before = (await readAll(connector, ctx, {}, ['bill'])).records.length;
    for (const n of [1, 2]) {
      const failed = await outcome(bill.create(writeContext(ctx, `${username}-${n}`), billInput(`SCENARIO-${n}`)));
      if (failed === 'ok') throw new Error('the write went through');
      const refused = failed.toServiceError();
      expect([failed.httpStatus, refused.code, refused.status]).toEqual([httpStatus, code, status]);
    }
    expect((await readAll(connector, ctx, {}, ['bill'])).records.length).toBe(before);
  });

  it('user_link_error cannot be identified: 503 from the platform, our 550', async () => {
    const failed = await outcome(connector.identify(login('user_link_error')));
    expect(failed === 'ok' ? 'ok' : [failed.httpStatus, failed.toServiceError().code, failed.toServiceError().status]).toEqual([
      503,
      'PLATFORM_ERROR',
      550,
    ]);
  });
});
