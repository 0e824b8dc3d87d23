/**
 * Stripe states every amount in the currency's smallest unit (cents for USD, yen for JPY): "zero-decimal" currencies
 * have no minor unit, a few have three decimals. Source: https://docs.stripe.com/currencies ("Zero-decimal
 * currencies", "Three-decimal currencies"). ISK, HUF, TWD and UGX are sent by Stripe with two decimals (amounts a
 * multiple of 100), so they follow the default here.
 */
import { fromMinor } from '../readers.ts';

export const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
export const THREE_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** Decimals of a currency's minor unit as Stripe counts them. */
export function decimalsOf(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL_CURRENCIES.has(code)) return 0;
  if (THREE_DECIMAL_CURRENCIES.has(code)) return 3;
  return 2;
}

/** An amount in major units (12.34 USD, 1234 JPY) from Stripe's minor units (1234, 1234). */
export const toMajor = (minor: number, currency: string): number => fromMinor(minor, decimalsOf(currency));
