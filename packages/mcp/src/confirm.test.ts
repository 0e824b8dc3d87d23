import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONFIRMATION_TTL_MS, Confirmations, canonicalJson, type WriteRequest } from './confirm.ts';

const request: WriteRequest = { method: 'POST', path: '/versioned/accounting/bills', connectionId: 'c1', body: { bill: { memo: 'a', total: 1 } } };

describe('write confirmations', () => {
  it('signs object keys in any order alike, arrays in their order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('confirms exactly the request it was issued for, with one idempotency key per token', () => {
    const confirmations = new Confirmations();
    const { token, tokenId } = confirmations.issue(request);
    const verdict = confirmations.check(token, { ...request, body: { bill: { total: 1, memo: 'a' } } });
    expect(verdict).toMatchObject({ ok: true, tokenId });
    expect(confirmations.check(token, request)).toEqual(verdict);
    expect(confirmations.check(token, { ...request, connectionId: 'c2' }).ok).toBe(false);
    expect(confirmations.check(token, { ...request, method: 'PATCH' }).ok).toBe(false);
    expect(confirmations.check(token, { ...request, body: { bill: { memo: 'a', total: 2 } } }).ok).toBe(false);
    const other = confirmations.issue(request);
    const otherVerdict = confirmations.check(other.token, request);
    expect(otherVerdict.ok && verdict.ok && otherVerdict.idempotencyKey !== verdict.idempotencyKey).toBe(true);
  });

  it("refuses another server's token, a forged expiry and an expired token", () => {
    let now = 1_000_000;
    const confirmations = new Confirmations({ now: () => now });
    const { token } = confirmations.issue(request);
    expect(new Confirmations({ key: randomBytes(32) }).check(token, request)).toMatchObject({ ok: false });
    const [id, expiry, mac] = token.split('.');
    expect(confirmations.check(`${id}.${Number(expiry) + 60_000}.${mac}`, request)).toMatchObject({ ok: false });
    expect(confirmations.check('garbage', request)).toMatchObject({ ok: false });
    now += CONFIRMATION_TTL_MS;
    expect(confirmations.check(token, request).ok).toBe(true);
    now += 1;
    expect(confirmations.check(token, request)).toEqual({ ok: false, reason: 'the token has expired: prepare the write again' });
  });
});
