import { describe, expect, it } from 'vitest';
import { hashedUuid, idOfUuid as sandboxIdOf, uuidOfId as xeroId } from './uuid-ids.ts';

describe('UUIDs of SANDBOX records (Xero ids)', () => {
  it('encode a SANDBOX id into a UUID and back, without state', () => {
    expect(xeroId('BILL-000123')).toBe('42494c4c-2d30-3030-3132-330000000000');
    for (const id of ['BILL-000123', 'VEN-000001', 'BPAY-000001/2', 'TAX-000004', 'ABCDEFGHIJKLMNOP']) expect(sandboxIdOf(xeroId(id))).toBe(id);
    expect(sandboxIdOf(xeroId('BILL-1').toUpperCase())).toBe('BILL-1');
  });

  it('decode nothing from UUIDs that are not ours', () => {
    expect(sandboxIdOf('00000000-0000-0000-0000-000000000000')).toBeNull();
    expect(sandboxIdOf('fe79f7dd-b6d4-4a92-ba7b-538af6289c58')).toBeNull();
    expect(sandboxIdOf('42494c4c-0000-3030-3132-330000000000')).toBeNull();
    expect(sandboxIdOf('not-a-uuid')).toBeNull();
    expect(() => xeroId('A-VERY-LONG-SANDBOX-ID')).toThrow(/too long/);
  });

  it('derive stable version 4 UUIDs from text', () => {
    expect(hashedUuid('xero-tenant:xero:user_good')).toBe(hashedUuid('xero-tenant:xero:user_good'));
    expect(hashedUuid('a')).not.toBe(hashedUuid('b'));
    expect(hashedUuid('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
