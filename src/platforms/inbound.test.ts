import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors/catalogue.ts';
import { wholeCents } from './inbound.ts';

describe('amounts for platforms that keep whole cents', () => {
  it('puts float artefacts of our own arithmetic right', () => {
    expect(wholeCents(10.1 - 0.1, 'line_items[0].total_amount')).toBe(10);
    expect(wholeCents(0.1 + 0.2, 'line_items[0].total_amount')).toBe(0.3);
    expect(wholeCents(-42.5, 'amount')).toBe(-42.5);
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
