/**
 * verifyWebhookSignature against the service's own signer (src/webhooks/signature.ts) with the secrets the service
 * signs with (activeSigningSecrets), before and during a client secret rotation's grace period.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { activeSigningSecrets, rotateSecret } from '../../../src/tenants/organizations.ts';
import { signatureHeaders } from '../../../src/webhooks/signature.ts';
import { verifyWebhookSignature } from './webhooks.ts';

let t: TestApp;
const body = Buffer.from(JSON.stringify({ type: 'CONNECTION', code: 'CONNECTION_UPDATED', connection_id: 'c1', amount: 10.5 }));

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

function signingSecrets(): Promise<string[]> {
  return activeSigningSecrets(t.db.pool, t.services.cipher, { organizationId: t.org.organization.id, environment: 'sandbox' });
}

describe('verifyWebhookSignature', () => {
  it("accepts the service's signature with the client secret, and refuses another body or another secret", async () => {
    const secrets = await signingSecrets();
    expect(secrets).toEqual([t.org.credentials.sandbox.client_secret]);
    const headers = signatureHeaders(body, secrets);
    expect(verifyWebhookSignature(body, headers, secrets)).toBe(true);
    expect(verifyWebhookSignature(body.toString('utf8'), headers, secrets)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body.toString('utf8').replace('10.5', '10.50')), headers, secrets)).toBe(false);
    expect(verifyWebhookSignature(body, headers, ['another secret'])).toBe(false);
    expect(verifyWebhookSignature(body, {}, secrets)).toBe(false);
    expect(verifyWebhookSignature(body, headers, [])).toBe(false);
  });

  it('reads both headers in any case, as Node and fetch hand them over', async () => {
    const secrets = await signingSecrets();
    const { 'X-Service-Signature': single, 'X-Service-Signatures': list } = signatureHeaders(body, secrets);
    expect(verifyWebhookSignature(body, { 'x-service-signatures': list }, secrets)).toBe(true);
    // Only the single header (a proxy that dropped the list): still verified.
    expect(verifyWebhookSignature(body, new Headers({ 'X-Service-Signature': single }), secrets)).toBe(true);
    expect(verifyWebhookSignature(body, { 'x-service-signatures': [list] }, secrets)).toBe(true);
  });

  it('during a rotation grace period, accepts with the old secret alone, the new one alone, or both', async () => {
    const old = t.org.credentials.sandbox.client_secret;
    const rotated = await rotateSecret(t.db.pool, t.services.cipher, t.org.organization.id, 'sandbox', 3600);
    const secrets = await signingSecrets();
    expect(secrets).toEqual([rotated.client_secret, old]);
    const headers = signatureHeaders(body, secrets);
    expect(headers['X-Service-Signatures'].split(', ')).toHaveLength(2);
    expect(verifyWebhookSignature(body, headers, [old])).toBe(true);
    expect(verifyWebhookSignature(body, headers, [rotated.client_secret])).toBe(true);
    expect(verifyWebhookSignature(body, headers, [rotated.client_secret, old])).toBe(true);
    expect(verifyWebhookSignature(body, headers, ['neither'])).toBe(false);
    // The single header carries the newest secret's signature only.
    expect(verifyWebhookSignature(body, { 'x-service-signature': headers['X-Service-Signature'] }, [old])).toBe(false);
  });
});
