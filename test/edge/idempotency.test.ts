import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../support/app.ts';
import { probeEndpoints, type ProbeCounter } from '../support/probe-endpoints.ts';
import { beginIdempotent, finishIdempotent } from '../../src/idempotency/idempotency.ts';
import { testServers } from '../support/database.ts';

// The same behaviour on every PostgreSQL of the run: embedded always, external when present.
describe.each(testServers())('on the %s PostgreSQL', (server) => {
  let t: TestApp;
  const counter: ProbeCounter = { executions: 0 };
  beforeAll(async () => {
    t = await startTestApp({ server, extraVersionedEndpoints: probeEndpoints(counter), idempotencyWaitMs: 1500 });
  });
  afterAll(async () => {
    await t.close();
  });

  const url = '/versioned/_probe/things';
  const post = (key: string, payload: unknown, options: { org?: TestApp['org']; path?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: options.path ?? url,
      payload: payload as Record<string, unknown>,
      headers: { ...clientHeaders(options.org ?? t.org), 'content-type': 'application/json', 'idempotency-key': key },
    });

  describe('Idempotency-Key', () => {
    it('20 concurrent identical POSTs with one key → one execution and 20 identical answers', async () => {
      const before = counter.executions;
      const responses = await Promise.all(Array.from({ length: 20 }, () => post('key-concurrent', { name: 'same' })));
      expect(counter.executions - before).toBe(1);
      for (const response of responses) {
        expect(response.statusCode).toBe(201);
        expect(response.body).toBe(responses[0]?.body);
      }
      expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    });

    it('replays the stored answer to a later retry', async () => {
      const first = await post('key-replay', { name: 'a' });
      const again = await post('key-replay', { name: 'a' });
      expect(again.statusCode).toBe(201);
      expect(again.body).toBe(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['content-type']).toMatch(/application\/json/);
    });

    it('the same key with a different body → 409 IDEMPOTENCY_KEY_MISMATCH', async () => {
      await post('key-mismatch', { name: 'a' });
      const response = await post('key-mismatch', { name: 'b' });
      expect(response.statusCode).toBe(409);
      expect(errorBody(response).error_code).toBe('IDEMPOTENCY_KEY_MISMATCH');
      expect(errorBody(response).error_message).toBe(
        `Idempotency-Key "key-mismatch" was first used for POST ${url} with a different body; use a new key for a different request.`,
      );
    });

    it('the same key on a different path or method → 409 IDEMPOTENCY_KEY_MISMATCH', async () => {
      await post('key-path', { name: 'a' });
      const otherPath = await post('key-path', { name: 'a' }, { path: `${url}?delay_ms=1` });
      expect(errorBody(otherPath).error_code).toBe('IDEMPOTENCY_KEY_MISMATCH');
      // The message names what differs, not "a different body".
      expect(errorBody(otherPath).error_message).toBe(
        `Idempotency-Key "key-path" was first used for POST ${url}, not on ${url}?delay_ms=1; use a new key for a different request.`,
      );
      const otherMethod = await t.app.inject({
        method: 'PATCH',
        url,
        payload: { name: 'a' },
        headers: { ...clientHeaders(t.org), 'content-type': 'application/json', 'idempotency-key': 'key-path' },
      });
      expect(otherMethod.statusCode).toBe(409);
      expect(errorBody(otherMethod).error_code).toBe('IDEMPOTENCY_KEY_MISMATCH');
      expect(errorBody(otherMethod).error_message).toBe(
        `Idempotency-Key "key-path" was first used for POST ${url}, not PATCH; use a new key for a different request.`,
      );
    });

    it('stores answers sealed, never in plain text', async () => {
      const first = await post('key-sealed', { name: 'visible-marker-4711' });
      expect(first.body).toContain('visible-marker-4711');
      const rows = await t.db.pool.query(
        `SELECT 1 FROM idempotency_keys WHERE key = 'key-sealed' AND position('visible-marker-4711'::bytea IN response_body) = 0`,
      );
      expect(rows.rowCount).toBe(1);
    });

    it('a request whose claim was taken over can neither store nor free the new claim', async () => {
      const scope = { organizationId: t.org.organization.id, environment: 'sandbox', key: 'key-owner' };
      const stale = await beginIdempotent(t.db.pool, t.services.cipher, scope, { method: 'POST', path: url, body: { name: 'o' } }, { waitMs: 0 });
      if (stale.kind !== 'execute') throw new Error('expected a claim');
      await t.db.pool.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = 'key-owner'`);
      const fresh = await post('key-owner', { name: 'o' });
      expect(fresh.statusCode).toBe(201);
      await finishIdempotent(t.db.pool, t.services.cipher, stale.claim, { status: 500, headers: {}, body: '' });
      await finishIdempotent(t.db.pool, t.services.cipher, stale.claim, { status: 201, headers: {}, body: '{"stale":true}' });
      const replay = await post('key-owner', { name: 'o' });
      expect(replay.body).toBe(fresh.body);
    });

    it('the same key while the first request still runs → 409 IDEMPOTENCY_KEY_IN_USE after the wait', async () => {
      const slow = post('key-slow', { name: 'slow' }, { path: `${url}?delay_ms=3000` });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const response = await post('key-slow', { name: 'slow' }, { path: `${url}?delay_ms=3000` });
      expect(response.statusCode).toBe(409);
      expect(errorBody(response).error_code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect((await slow).statusCode).toBe(201);
    });

    it('keys are scoped to organisation and environment', async () => {
      const other = await t.newOrg();
      const before = counter.executions;
      const mine = await post('key-scope', { name: 'x' });
      const theirs = await post('key-scope', { name: 'x' }, { org: other });
      const production = await t.app.inject({
        method: 'POST',
        url,
        payload: { name: 'x' },
        headers: { ...clientHeaders(t.org, 'production'), 'idempotency-key': 'key-scope' },
      });
      expect(counter.executions - before).toBe(3);
      expect(json(mine).execution).not.toBe(json(theirs).execution);
      expect(production.headers['idempotent-replayed']).toBeUndefined();
    });

    it('a validation failure is not stored: the corrected retry with the same key runs', async () => {
      const bad = await post('key-invalid', { name: '' });
      expect(bad.statusCode).toBe(400);
      const good = await post('key-invalid', { name: 'fixed' });
      expect(good.statusCode).toBe(201);
    });

    it('refuses malformed keys', async () => {
      const response = await post('has space', { name: 'x' });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).error_metadata).toMatchObject({ field: 'Idempotency-Key' });
      expect((await post('k'.repeat(256), { name: 'x' })).statusCode).toBe(400);
    });
  });
});
