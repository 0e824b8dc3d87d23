import { describe, expect, it } from 'vitest';
import applyBillCredit from '../api/accounting/bill-credit-applications/apply.ts';
import unapplyBillCredit from '../api/accounting/bill-credit-applications/unapply.ts';
import applyInvoiceCredit from '../api/accounting/invoice-credit-applications/apply.ts';
import unapplyInvoiceCredit from '../api/accounting/invoice-credit-applications/unapply.ts';
import bankFeedMappingLink from '../api/accounting/bank-feeds/mapping-link.ts';
import sendBankFeedTransactions from '../api/accounting/bank-feeds/transactions.ts';
import { uploadAttachmentEndpoint } from '../api/accounting/attachments/upload.ts';
import { objectWriteEndpoints } from '../api/writes/objects.ts';
import fulfillOrder from '../api/commerce/orders/fulfillments.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { checkAmount, collectAmounts, MONEY_FIELDS, NOT_MONEY_FIELDS, type Amount } from './amounts.ts';
import { checkRules } from './check-input.ts';
import { decimalParts, decimalPlaces, formatUnits, scaledUnits } from '../money/decimal.ts';
import { minorUnits } from './minor-units.ts';

type Json = Record<string, unknown>;

function refusal(run: () => unknown): { field: unknown; message: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.code).toBe('VALIDATION_ERROR');
    return { field: error.metadata?.field, message: error.message };
  }
  throw new Error('not refused');
}

const amount = (value: number, currency: string | null): Amount => ({ field: 'bill.total_amount', value, currency });

describe('minor units (ISO 4217)', () => {
  it("knows each currency's decimal places, ISO's value where the Intl data says fewer", () => {
    expect(minorUnits('JPY')).toBe(0);
    expect(minorUnits('USD')).toBe(2);
    expect(minorUnits('EUR')).toBe(2);
    expect(minorUnits('KWD')).toBe(3);
    expect(minorUnits('BHD')).toBe(3);
    expect(minorUnits('CLF')).toBe(4);
    // Intl (CLDR) says 0 for these; ISO 4217 and the platforms keep hundredths (IQD thousandths).
    expect(minorUnits('HUF')).toBe(2);
    expect(minorUnits('IDR')).toBe(2);
    expect(minorUnits('IQD')).toBe(3);
    expect(minorUnits('BTC')).toBe(8);
    expect(minorUnits('usd')).toBeNull();
    expect(minorUnits('')).toBeNull();
  });
});

describe('an amount against its currency', () => {
  it('refuses more decimal places than the currency has, saying how many it allows', () => {
    expect(
      refusal(() => {
        checkAmount(amount(0.004, 'USD'));
      }),
    ).toEqual({
      field: 'bill.total_amount',
      message:
        '`bill.total_amount` in the request body has 3 decimal places (got 0.004) but USD allows at most 2 decimal places; amounts are never rounded, send the amount to book.',
    });
    expect(
      refusal(() => {
        checkAmount(amount(1.5, 'JPY'));
      }).message,
    ).toContain('JPY allows no decimal places');
    expect(
      refusal(() => {
        checkAmount(amount(0.0004, 'KWD'));
      }).message,
    ).toContain('KWD allows at most 3 decimal places');
    expect(
      refusal(() => {
        checkAmount(amount(0.1 + 0.2, 'EUR'));
      }).message,
    ).toContain('has 17 decimal places');
  });

  it('accepts what the currency can hold, as sent', () => {
    for (const [value, currency] of [
      [0.004, 'KWD'],
      [0.004, 'BHD'],
      [1500, 'JPY'],
      [12.5, 'USD'],
      [-99.99, 'USD'],
      [0.0001, 'CLF'],
      [0.00000001, 'BTC'],
      [0, 'JPY'],
    ] as const) {
      expect(
        () => {
          checkAmount(amount(value, currency));
        },
        `${String(value)} ${currency}`,
      ).not.toThrow();
    }
  });

  it('allows at most 4 places (the most of any ISO currency) when the currency is not known', () => {
    expect(() => {
      checkAmount(amount(0.0001, null));
    }).not.toThrow();
    expect(
      refusal(() => {
        checkAmount(amount(0.00001, null));
      }).message,
    ).toContain('whose currency is not known may have at most 4 decimal places');
  });

  it('refuses amounts a double cannot keep exactly', () => {
    expect(
      refusal(() => {
        checkAmount(amount(1e300, 'USD'));
      }).message,
    ).toContain('below 10^15');
    expect(
      refusal(() => {
        checkAmount(amount(1e15, 'USD'));
      }).message,
    ).toContain('below 10^15');
    expect(
      refusal(() => {
        checkAmount(amount(Number('12345678901234567'), 'JPY'));
      }).message,
    ).toContain('cannot be kept exactly');
    expect(() => {
      checkAmount(amount(999999999999.99, 'USD'));
    }).not.toThrow();
  });
});

describe('decimals as written', () => {
  it('counts the decimal places of the shortest text of a double', () => {
    const places = (n: number): number => decimalPlaces(decimalParts(n));
    expect([0.004, 12.5, 12.5e1, 100, 1e-7, 1.5e-10, 1e21, -0, 0].map(places)).toEqual([3, 1, 0, 0, 7, 11, 0, 0, 0]);
    expect(() => decimalParts(Infinity)).toThrow(RangeError);
  });

  it('scales exactly where Math.round(x * 100) would not', () => {
    expect(scaledUnits(decimalParts(1.005), 3)).toBe(1005n);
    expect(scaledUnits(decimalParts(-0.1), 2)).toBe(-10n);
    expect(scaledUnits(decimalParts(1e20), 2)).toBe(10n ** 22n);
    expect(() => scaledUnits(decimalParts(0.004), 2)).toThrow(RangeError);
    expect([formatUnits(12345n, 2), formatUnits(-5n, 3), formatUnits(7n, 0)]).toEqual(['123.45', '-0.005', '7']);
  });
});

describe('numbers in a body', () => {
  const schema: Json = {
    type: 'object',
    properties: {
      bill: {
        type: 'object',
        properties: {
          currency_code: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          currency_rate: { type: 'number' },
          additional_fields: { type: 'object' },
          line_items: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                total_amount: { type: 'number' },
                tax_amount: { anyOf: [{ type: 'number' }, { type: 'null' }] },
                item: {
                  anyOf: [{ type: 'object', properties: { quantity: { type: 'number' }, unit_amount: { type: 'number' } } }, { type: 'null' }],
                },
              },
            },
          },
        },
      },
    },
  };

  it('refuses a non-finite number anywhere, money or not, described by the schema or not', () => {
    const bodies: [Json, string][] = [
      [{ bill: { line_items: [{ total_amount: 1 }, { total_amount: -Infinity }] } }, 'bill.line_items[1].total_amount'],
      [{ bill: { currency_rate: Infinity } }, 'bill.currency_rate'],
      [{ bill: { line_items: [{ total_amount: 1, item: { quantity: Infinity, unit_amount: 1 } }] } }, 'bill.line_items[0].item.quantity'],
      [{ bill: { additional_fields: { deep: [[{ n: Number.NaN }]] } } }, 'bill.additional_fields.deep[0][0].n'],
    ];
    for (const [body, field] of bodies) expect(refusal(() => collectAmounts(body, schema)).field).toBe(field);
  });

  it('collects the money amounts with the nearest currency_code around them; rates, quantities and free-form numbers are not money', () => {
    const body = {
      bill: {
        currency_code: 'KWD',
        currency_rate: 0.123456,
        additional_fields: { total_amount: 0.00001 },
        line_items: [{ total_amount: 5, tax_amount: null, item: { quantity: 2.5, unit_amount: 2 } }],
      },
    };
    expect(collectAmounts(body, schema)).toEqual([
      { field: 'bill.line_items[0].total_amount', value: 5, currency: 'KWD' },
      { field: 'bill.line_items[0].item.unit_amount', value: 2, currency: 'KWD' },
    ]);
    expect(collectAmounts({ bill: { line_items: [{ total_amount: 5 }] } }, schema)).toEqual([
      { field: 'bill.line_items[0].total_amount', value: 5, currency: null },
    ]);
  });

  it('walks a deeply nested free-form object without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(collectAmounts({ bill: { additional_fields: { deep } } }, schema)).toEqual([]);
  });

  it('classifies every numeric field of every write route as money or not', () => {
    const routes = [
      ...objectWriteEndpoints,
      applyBillCredit,
      unapplyBillCredit,
      applyInvoiceCredit,
      unapplyInvoiceCredit,
      sendBankFeedTransactions,
      bankFeedMappingLink,
      fulfillOrder,
      uploadAttachmentEndpoint('journal_entry'),
    ];
    const numeric = new Set<string>();
    const walk = (node: unknown, name: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const s = node as Json;
      if (s.type === 'number' || s.type === 'integer') numeric.add(name);
      if (Array.isArray(s.anyOf)) for (const branch of s.anyOf) walk(branch, name);
      walk(s.items, name);
      if (typeof s.properties === 'object' && s.properties !== null) for (const [key, child] of Object.entries(s.properties)) walk(child, key);
    };
    for (const route of routes) walk(route.contract.body, '');
    const unclassified = [...numeric].filter((name) => !MONEY_FIELDS.has(name) && !NOT_MONEY_FIELDS.has(name));
    expect(unclassified).toEqual([]);
    expect([...numeric].filter((name) => MONEY_FIELDS.has(name) && NOT_MONEY_FIELDS.has(name))).toEqual([]);
    expect(numeric).toContain('total_amount');
    expect(numeric).toContain('allocated_amount');
    expect(numeric).toContain('quantity');
  });
});

describe('ledger rules on exact decimals', () => {
  it('balances a journal entry to the third decimal instead of rounding each line to cents', () => {
    const lines = (...amounts: number[]): Json => ({ line_items: amounts.map((total_amount) => ({ account_id: 'x', total_amount })) });
    expect(() => {
      checkRules('journal_entry', lines(1.005, 1.004, -2.009), 'journal_entry', true);
    }).not.toThrow();
    expect(() => {
      checkRules('journal_entry', lines(0.1, 0.2, -0.3), 'journal_entry', true);
    }).not.toThrow();
    expect(
      refusal(() => {
        checkRules('journal_entry', lines(1.005, -1.004), 'journal_entry', true);
      }).message,
    ).toContain('debits total 1.005 and credits 1.004');
  });
});
