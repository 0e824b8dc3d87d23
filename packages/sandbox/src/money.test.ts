import { describe, expect, it } from 'vitest';
import { formatCents, parseCents, tryParseCents } from './money.ts';

describe('sandbox money', () => {
  it('takes JSON numbers with at most two decimals exactly, large ones included, and refuses fractions of a cent', () => {
    expect(tryParseCents(12.5)).toBe(1250);
    expect(tryParseCents(-0.01)).toBe(-1);
    // value * 100 is 16194151864.000002 here: a float test would refuse a valid amount.
    expect(tryParseCents(161941518.64)).toBe(16194151864);
    expect(tryParseCents(99999999999.99)).toBe(9999999999999);
    expect(tryParseCents(0.004)).toBeNull();
    expect(tryParseCents(1.005)).toBeNull();
    expect(tryParseCents(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('reads and writes decimal text', () => {
    expect(parseCents('1234.5')).toBe(123450);
    expect(tryParseCents('12.345')).toBeNull();
    expect(formatCents(-123405)).toBe('-1234.05');
  });
});
