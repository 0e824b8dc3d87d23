import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { listConnectors } from '../../platforms/index.ts';

// Issue 32, item 6: a platform id in the wrong case, or one not offered, is answered with what to send, not a regular
// expression.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

function create(platform: string) {
  return t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: clientHeaders(t.org), payload: { platform } });
}

describe('POST /connections/create with a platform it cannot take', () => {
  it('"sandbox": ids are upper case, e.g. SANDBOX; no regular expression', async () => {
    const response = await create('sandbox');
    expect(response.statusCode).toBe(400);
    const error = errorBody(response);
    expect(error.error_code).toBe('VALIDATION_ERROR');
    expect(error.error_metadata).toMatchObject({ field: 'platform', location: 'body' });
    expect(error.error_message).toBe('`platform` in the request body must be a platform id in upper case, e.g. SANDBOX or XERO (got "sandbox").');
  });

  it('an id nobody offers: lists the offered ones', async () => {
    const response = await create('NOPE');
    expect(response.statusCode).toBe(400);
    const offered = listConnectors()
      .map((c) => c.id)
      .sort();
    expect(offered).toContain('SANDBOX');
    expect(errorBody(response).error_message).toBe(`\`platform\` "NOPE" is not offered by this service; it offers ${offered.join(', ')}.`);
  });
});

describe('the link flow with a platform that is no platform id', () => {
  it('says what a platform id is, not a regular expression', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: clientHeaders(t.org), payload: {} });
    const { link_url: linkUrl } = (JSON.parse(created.body) as { connection: { link_url: string } }).connection;
    const response = await t.app.inject({ method: 'GET', url: `${new URL(linkUrl).pathname}/sand-box` });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('a platform id is letters, digits and _, e.g. SANDBOX (got &quot;sand-box&quot;)');
    expect(response.body).not.toContain('pattern');
  });
});
