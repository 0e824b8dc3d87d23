import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isForbiddenAddress, webhookUrlProblem } from './address-guard.ts';
import { JITTER_MS, RETRY_DELAYS_MS, retryDelayMs, windowMs } from './schedule.ts';
import { signature, signatureHeaders, verifySignatures } from './signature.ts';

describe('address guard', () => {
  it('forbids loopback, private, link-local, metadata, CGNAT, unique-local, multicast and unspecified addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      '[::1]',
      'not-an-ip',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
  });

  it('allows public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('checks URLs: scheme, credentials, fragments, and private literals when they are not allowed', () => {
    expect(webhookUrlProblem('https://hooks.example.com/ledgerport', { allowPrivate: false })).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:3000/hooks', { allowPrivate: true })).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:3000/hooks', { allowPrivate: false })).toMatch(/not a global unicast address/);
    expect(webhookUrlProblem('http://[::1]/hooks', { allowPrivate: false })).toMatch(/private/);
    expect(webhookUrlProblem('ftp://example.com/', { allowPrivate: true })).toMatch(/http or https/);
    expect(webhookUrlProblem('https://user:pass@example.com/', { allowPrivate: true })).toMatch(/credentials/);
    expect(webhookUrlProblem('https://example.com/#x', { allowPrivate: true })).toMatch(/fragment/);
    expect(webhookUrlProblem('not a url', { allowPrivate: true })).toMatch(/not a valid URL/);
  });
});

describe('signatures', () => {
  const body = '{"type":"CONNECTION","code":"INITIAL_UPDATE"}';

  it('are sha256= and base64 of HMAC-SHA256 over the raw body', () => {
    expect(signature(body, 'secret')).toBe(`sha256=${createHmac('sha256', 'secret').update(body).digest('base64')}`);
  });

  it('list every active secret newest first, comma and space, and verify against any', () => {
    const headers = signatureHeaders(body, ['new', 'old']);
    expect(headers['X-Service-Signature']).toBe(signature(body, 'new'));
    expect(headers['X-Service-Signatures']).toBe(`${signature(body, 'new')}, ${signature(body, 'old')}`);
    expect(verifySignatures(body, headers['X-Service-Signatures'], ['old'])).toBe(true);
    expect(verifySignatures(body, headers['X-Service-Signatures'], ['other'])).toBe(false);
    expect(verifySignatures(`${body} `, headers['X-Service-Signatures'], ['new'])).toBe(false);
  });
});

describe('retry schedule', () => {
  it('waits about 15 s, 25 s, 45 s, 1.5 min, 3 min and 5.5 min, plus up to 10 s of jitter', () => {
    expect(RETRY_DELAYS_MS.map((_delay, n) => retryDelayMs(n + 1, 1, () => 0))).toEqual([15_000, 25_000, 45_000, 90_000, 180_000, 330_000]);
    expect(retryDelayMs(1, 1, () => 0.999)).toBeLessThan(15_000 + JITTER_MS);
    expect(retryDelayMs(2, 0.01, () => 0)).toBe(250);
  });

  it('fits six retries in the 15-minute window even with full jitter and 5 s timeouts, and not a seventh', () => {
    const worst = RETRY_DELAYS_MS.reduce((sum, d) => sum + d + JITTER_MS + 5_000, 0);
    expect(worst).toBeLessThan(windowMs(1));
    expect(RETRY_DELAYS_MS.reduce((sum, d) => sum + d, 0) + (RETRY_DELAYS_MS.at(-1) ?? 0)).toBeGreaterThan(windowMs(1));
  });
});
