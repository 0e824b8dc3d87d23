import { describe, expect, it } from 'vitest';
import { findInexactNumber } from './exact-numbers.ts';
import { convertsExactly } from '../money/decimal.ts';

describe('convertsExactly', () => {
  it('holds when the parsed number is the decimal written: trailing zeros, exponents, 15 digits, round-trip text', () => {
    for (const text of [
      '0',
      '1.50',
      '1e2',
      '1E+2',
      '100e-2',
      '0.1',
      '-12.34',
      '123456789012345',
      '0.30000000000000004',
      '5e-324',
      '1e21',
      '0e5',
      '-0',
    ]) {
      expect(convertsExactly(text, Number(text)), text).toBe(true);
    }
  });

  it('fails when parsing changed the decimal: too many digits, underflow, overflow', () => {
    for (const text of ['1.00000000000000000000001', '0.1e-400', '-0.1e-400', '12345678901234567890', '9007199254740993', '1e309']) {
      expect(convertsExactly(text, Number(text)), text).toBe(false);
    }
  });
});

describe('findInexactNumber', () => {
  const bill = (amount: string): string => `{"bill": {"memo": "x", "line_items": [{"total_amount": 5}, {"total_amount": ${amount}}]}}`;

  it('names the first number that parsing changed, and says what it would become', () => {
    expect(findInexactNumber(bill('0.1e-400'))).toEqual({
      field: 'bill.line_items[1].total_amount',
      problem: expect.stringContaining('is written 0.1e-400, which no number holds exactly: it would be stored as 0') as unknown,
    });
    expect(findInexactNumber(bill('1.00000000000000000000001'))?.problem).toContain('it would be stored as 1;');
    expect(findInexactNumber(bill('-0'))).toEqual({
      field: 'bill.line_items[1].total_amount',
      problem: expect.stringContaining('negative zero') as unknown,
    });
    expect(findInexactNumber(bill('-0.00'))?.problem).toContain('negative zero');
    expect(findInexactNumber('-0')).toEqual({ field: '', problem: expect.stringContaining('negative zero') as unknown });
    expect(findInexactNumber('[1, [2, {"a": 3e-999}], 1e-999]')?.field).toBe('[1][1].a');
  });

  it('passes exact numbers, finite-rule cases and look-alikes inside strings', () => {
    for (const amount of ['1.50', '1e2', '-0.5', '0', '0.0', '123456789012345', '-0.001', '1e309']) {
      expect(findInexactNumber(bill(amount)), amount).toBeNull();
    }
    expect(findInexactNumber('{"memo": "a,-0 and :1e-999 and 12345678901234567890"}')).toBeNull();
  });
});
