import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors/catalogue.ts';
import { defineContract, defineEndpoint } from '../../src/http/contract.ts';
import { clientHeaders, errorBody, startTestApp, type TestApp } from '../support/app.ts';
import { takeViolations } from '../support/contract-violations.ts';
import { probeEndpoints } from '../support/probe-endpoints.ts';

/** Answers what its contract does not declare: a 410, and a 200 as text. */
const undeclared = defineEndpoint(
  defineContract({
    method: 'GET',
    url: '/_probe/undeclared',
    auth: 'client',
    tags: ['Probe'],
    summary: 'probe',
    querystring: Type.Object({ as: Type.Optional(Type.String()) }),
    success: { status: 200, schema: Type.Object({ ok: Type.Boolean() }) },
    errors: [],
  }),
  async (request, reply) => {
    if (request.query.as !== 'text') throw new ServiceError('RESOURCE_NOT_FOUND', 'Gone.', { source: 'service' });
    // A string with its own content type leaves as is, without the schema's serializer.
    await reply.type('text/plain').send('ok');
    return { ok: true };
  },
);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ extraVersionedEndpoints: [...probeEndpoints({ executions: 0 }), undeclared] });
});
afterAll(async () => {
  await t.close();
});

const url = '/versioned/_probe/things';
const headers = () => ({ ...clientHeaders(t.org), 'content-type': 'application/json' });

describe('error bodies at the edge', () => {
  it('malformed JSON → 400 MALFORMED_JSON', async () => {
    const response = await t.app.inject({ method: 'POST', url, headers: headers(), payload: '{"name": "x",' });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: 'MALFORMED_JSON' });
  });

  it('a 10 MB body → 413 PAYLOAD_TOO_LARGE', async () => {
    const payload = JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024) });
    const response = await t.app.inject({ method: 'POST', url, headers: headers(), payload });
    expect(response.statusCode).toBe(413);
    expect(errorBody(response).error_code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a missing field names the field', async () => {
    const response = await t.app.inject({ method: 'POST', url, headers: headers(), payload: { amount: 1 } });
    expect(response.statusCode).toBe(400);
    const body = errorBody(response);
    expect(body.error_code).toBe('VALIDATION_ERROR');
    expect(body.error_message).toBe('`name` in the request body is required.');
    expect(body.error_metadata).toMatchObject({ source: 'service', field: 'name', location: 'body' });
  });

  it('a wrong type is not coerced in a body and the message says what to send', async () => {
    const response = await t.app.inject({ method: 'POST', url, headers: headers(), payload: { name: 'x', amount: '12.50' } });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).error_message).toBe('`amount` in the request body must be of type number.');
  });

  it('an unknown body field is refused by name', async () => {
    const response = await t.app.inject({ method: 'POST', url, headers: headers(), payload: { name: 'x', nmae: 'typo' } });
    expect(errorBody(response).error_message).toBe('`nmae` in the request body is not a known field; remove it.');
  });

  it('query values are validated with bounds', async () => {
    const response = await t.app.inject({ method: 'POST', url: `${url}?delay_ms=99999`, headers: headers(), payload: { name: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).error_message).toBe('`delay_ms` in the query string must be <= 5000.');
  });

  it('a non-JSON content type is refused', async () => {
    const response = await t.app.inject({ method: 'POST', url, headers: { ...clientHeaders(t.org), 'content-type': 'text/csv' }, payload: 'a,b' });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).error_code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('an unknown route → 404 ROUTE_NOT_FOUND', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/versioned/nothing/here', headers: clientHeaders(t.org) });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).error_code).toBe('ROUTE_NOT_FOUND');
  });

  it('every response carries X-Request-Id, and a well-formed incoming one is kept', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await t.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'client-trace-42' } });
    expect(failed.headers['x-request-id']).toBe('client-trace-42');
    const hostile = await t.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(hostile.headers['x-request-id']).not.toBe('bad id\twith spaces');
  });

  it('an answer outside /openapi.json is reported against the test that received it (test/support/contract-check.ts)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/versioned/_probe/undeclared', headers: clientHeaders(t.org) })).statusCode).toBe(410);
    expect((await t.app.inject({ method: 'GET', url: '/versioned/_probe/undeclared?as=text', headers: clientHeaders(t.org) })).statusCode).toBe(200);
    // Taken here, so that this test does not fail for them.
    const violations = takeViolations((v) => v.test === expect.getState().currentTestName);
    expect(violations.map((v) => v.problems.join('; '))).toEqual([
      expect.stringMatching(/^status 410 is not declared \(declared: 200, 400, 401, 403, 404, 429, 500, 503\)$/),
      'content type text/plain is not declared for 200 (declared: application/json)',
    ]);
  });
});
