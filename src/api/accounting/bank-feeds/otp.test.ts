/** POST /accounting/bank_feeds/otp through the real server: no platform served needs one, so it is refused after the usual checks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, startTestApp, type TestApp } from '../../../../test/support/app.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../../test/support/sandbox-connection.ts';

let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp();
  c = await syncedSandboxConnection(t, 'user_otp_size_20');
}, 120_000);
afterAll(async () => {
  await t.close();
});

const post = (body: unknown, headers: Record<string, string> = clientHeaders(t.org), token = c.token) =>
  t.app.inject({ method: 'POST', url: `/versioned/accounting/bank_feeds/otp?access_token=${token}`, headers, payload: body as object });

describe('POST /accounting/bank_feeds/otp', () => {
  it('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM on SANDBOX, whose feeds link through the mapping page', async () => {
    const response = await post({});
    expect(response.statusCode, response.body).toBe(404);
    expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
    expect(errorBody(response).error_message).toContain('mapping_link');
  });

  it('refuses missing auth, another organisation and a body with fields', async () => {
    expect((await post({}, { 'x-service-version': '2024-08-31', 'content-type': 'application/json' })).statusCode).toBe(401);
    const other = await t.newOrg('OTP other');
    expect(errorBody(await post({}, clientHeaders(other))).error_code).toBe('INVALID_CREDENTIALS');
    const refused = await post({ otp: '123456' });
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).error_code).toBe('VALIDATION_ERROR');
  });
});
