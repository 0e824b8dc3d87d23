/**
 * Money as integer cents. The native format writes amounts as decimal text
 * ("1234.50"); arithmetic happens on cents only, so totals never drift.
 */
import { decimalParts, decimalPlaces, scaledUnits } from '../../../src/money/decimal.ts';

const DECIMAL = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

/** "1234.5" → 123450. Throws on anything that is not a decimal with at most 2 places. */
export function parseCents(text: string): number {
  // Fast path for the platform's own canonical form ("-123.45"): no regex, no allocation.
  const n = text.length;
  if (n >= 4 && text.charCodeAt(n - 3) === 46) {
    let i = text.charCodeAt(0) === 45 ? 1 : 0;
    const negative = i === 1;
    let value = 0;
    let ok = i < n - 3;
    for (; ok && i < n; i++) {
      if (i === n - 3) continue;
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) ok = false;
      else value = value * 10 + digit;
    }
    if (ok) return negative && value !== 0 ? -value : value;
  }
  const match = DECIMAL.exec(text.trim());
  if (match === null) throw new RangeError(`not a money amount: ${JSON.stringify(text)}`);
  const whole = Number(match[2]);
  const fraction = Number((match[3] ?? '0').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  return match[1] === '-' && cents !== 0 ? -cents : cents;
}

/** Like parseCents but null for malformed input (API payloads). */
export function tryParseCents(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // Reject sub-cent precision instead of silently rounding it away; decided on the decimal the number is, since
    // value * 100 carries float error that grows with the amount (161941518.64 * 100 is 16194151864.000002).
    const parts = decimalParts(value);
    return decimalPlaces(parts) <= 2 ? Number(scaledUnits(parts, 2)) : null;
  }
  if (typeof value !== 'string') return null;
  return DECIMAL.test(value.trim()) ? parseCents(value) : null;
}

/** 123450 → "1234.50". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents as the JSON number the unified model serves. */
export function centsToNumber(cents: number): number {
  return cents / 100;
}

/** Amount as a number from native decimal text; null stays null. */
export function amount(text: string | null | undefined): number | null {
  return text === null || text === undefined ? null : centsToNumber(parseCents(text));
}

/** Rates are thousandths of a percent: "8.875" → 8875. */
export function parseRate(text: string): number {
  const match = /^(\d+)(?:\.(\d{1,3}))?$/.exec(text.trim());
  if (match === null) throw new RangeError(`not a rate: ${JSON.stringify(text)}`);
  return Number(match[1]) * 1000 + Number((match[2] ?? '0').padEnd(3, '0'));
}

export function formatRate(milli: number): string {
  return `${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
}

/** Tax on a net amount at a rate in thousandths of a percent, rounded half away from zero. */
export function taxOn(netCents: number, rateMilli: number): number {
  // Integer arithmetic: the product stays far below 2^53 for any realistic amount.
  const product = Math.abs(netCents) * rateMilli;
  const quotient = Math.floor(product / 100_000);
  const rounded = (product - quotient * 100_000) * 2 >= 100_000 ? quotient + 1 : quotient;
  return netCents < 0 ? -rounded : rounded;
}
