/**
 * Issue 32: forged platform-webhook posts are throttled like failed logins. After the address limit of refused
 * signatures, that address is answered 429 before its body is read; a target (an organisation's app) over its limit
 * still has each signature checked, so the platform's genuine notifications from its own address go on arriving.
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { buildApp } from '../../app.ts';
import { registerOAuthApp } from '../../../test/support/oauth-connection.ts';
import { throttledRequests } from '../../metrics/registry.ts';

const KEY = 'xero-webhook-key-throttle-0123';
const APP = { clientId: 'ledgerport-xero-throttle', clientSecret: 'secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback', webhookKey: KEY };
const LIMITS = { perAddress: 5, perTarget: 8, windowSeconds: 60, webhookRefusalDelayMs: 0 };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { authFailures: LIMITS } });
});
afterAll(async () => {
  await t.close();
});

// Xero's intent-to-receive check: an empty list of events, answered 200 when the signature matches.
const body = JSON.stringify({ events: [], firstEventSequence: 0, lastEventSequence: 0, entropy: 'QWERTYUIOPASDFGH' });
const sign = (text: string, key = KEY): string => createHmac('sha256', key).update(text).digest('base64');
let orgId = '';
const path = (): string => `/platform-webhooks/XERO/${orgId}/sandbox`;

/** Each test posts for an organisation of its own, so the target counts of one do not reach the next. */
beforeEach(async () => {
  const org = await t.newOrg(`Hooks ${randomUUID()}`);
  await registerOAuthApp(t, 'XERO', APP, org);
  orgId = org.organization.id;
});

function post(address: string, signature: string, payload = body) {
  return t.app.inject({
    method: 'POST',
    url: path(),
    remoteAddress: address,
    payload,
    headers: { 'content-type': 'application/json', 'x-xero-signature': signature },
  });
}

async function webhookThrottled(): Promise<number> {
  return (await throttledRequests.get()).values.find((v) => v.labels.reason === 'webhook_throttle')?.value ?? 0;
}

describe('forged platform webhooks', () => {
  it(`after ${LIMITS.perAddress} forged posts from one address, that address gets 429 and its body is not read`, async () => {
    const throttledBefore = await webhookThrottled();
    for (let i = 0; i < LIMITS.perAddress; i++) expect((await post('10.7.0.1', sign(body, 'forged'))).statusCode).toBe(401);
    const blocked = await post('10.7.0.1', sign(body, 'forged'));
    expect(blocked.statusCode).toBe(429);
    // Counted as a 429 of the webhook throttle (docs/operations.md, "Metrics reference").
    expect((await webhookThrottled()) - throttledBefore).toBe(1);
    expect(errorBody(blocked).error_code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(blocked.headers.connection).toBe('close');
    // The platform's own sender elsewhere is not affected.
    expect((await post('10.7.0.2', sign(body))).statusCode).toBe(200);
  });

  it('over a real socket, a blocked sender is answered before its 900 KB body is sent', async () => {
    for (let i = 0; i < LIMITS.perAddress; i++) expect((await post('127.0.0.20', sign(body, 'forged'))).statusCode).toBe(401);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          localAddress: '127.0.0.20',
          method: 'POST',
          path: path(),
          headers: { 'content-type': 'application/json', 'content-length': String(900 * 1024), 'x-xero-signature': 'forged' },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.once('error', reject);
      // Only the headers: the answer must come without the body.
      request.flushHeaders();
    });
    expect(answer).toBe(429);
  });

  it('a blocked sender waits for its 429, unread, while other senders are answered; closing the app answers it at once', async () => {
    // An hour: the answer can only come from the close below, whatever the machine's speed.
    const app = await buildApp(
      { ...t.services, config: { ...t.services.config, authFailures: { ...LIMITS, webhookRefusalDelayMs: 3_600_000 } } },
      { logger: false },
    );
    const inject = (address: string, signature: string) =>
      app.inject({
        method: 'POST',
        url: path(),
        remoteAddress: address,
        payload: body,
        headers: { 'content-type': 'application/json', 'x-xero-signature': signature },
      });
    try {
      // Refusals before the block are not held.
      for (let i = 0; i < LIMITS.perAddress; i++) expect((await inject('10.7.2.1', sign(body, 'forged'))).statusCode).toBe(401);
      let settled = false;
      const held = inject('10.7.2.1', sign(body, 'forged')).finally(() => (settled = true));
      expect((await inject('10.7.2.2', sign(body))).statusCode).toBe(200);
      expect(settled).toBe(false);
      expect(app.heldRefusals.size).toBe(1);
      await app.close();
      const answer = await held;
      expect(answer.statusCode).toBe(429);
      expect(answer.headers.connection).toBe('close');
      expect(app.heldRefusals.size).toBe(0);
    } finally {
      await app.close();
    }
  });

  it(`after ${LIMITS.perTarget} forged posts for one organisation from many addresses, the genuine signature still passes`, async () => {
    const send = post;
    for (let i = 0; i < LIMITS.perTarget; i++) expect((await send(`10.7.1.${i + 1}`, sign(body, `forged ${randomUUID()}`))).statusCode).toBe(401);
    expect((await send('10.7.1.200', sign(body, 'forged again'))).statusCode).toBe(429);
    expect((await send('10.7.1.201', sign(body))).statusCode).toBe(200);
  });
});
