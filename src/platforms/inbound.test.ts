import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors/catalogue.ts';
import { exactDifference, wholeCents } from './inbound.ts';

describe('amounts for platforms that keep whole cents', () => {
  it('subtracts exactly, so our own arithmetic makes no fraction of a cent', () => {
    expect(exactDifference(10.1, 0.1)).toBe(10);
    expect(wholeCents(exactDifference(10.1, 0.1), 'line_items[0].total_amount')).toBe(10);
    expect(exactDifference(0.3, 0.1)).toBe(0.2);
    expect(exactDifference(-42.5, 0.25)).toBe(-42.75);
    expect(wholeCents(-42.5, 'amount')).toBe(-42.5);
  });

  it('keeps large amounts with two decimals, which value * 100 gets wrong', () => {
    for (const value of [161941518.64, 99999999999.99, 1e13 - 0.01, 123456789012.3]) {
      expect(wholeCents(value, 'amount')).toBe(value);
    }
    expect(exactDifference(161941518.64, 18.05)).toBe(161941500.59);
  });

  it('refuses a real fraction of a cent instead of rounding it away (0.004 KWD was booked as 0.00)', () => {
    for (const value of [0.004, 1.005, Number.POSITIVE_INFINITY]) {
      let refused: unknown;
      try {
        wholeCents(value, 'line_items[0].total_amount');
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(ServiceError);
      expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', metadata: { field: 'line_items[0].total_amount' } });
    }
  });
});
