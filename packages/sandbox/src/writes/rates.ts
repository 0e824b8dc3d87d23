/**
 * The exchange rate a written document carries: the one the client sent; otherwise, when the document is new or its
 * currency or date changes, the rate of its currency on its date, as QuickBooks Online fills it in from its rate
 * table: 1 in the home currency, else the latest rate of the currency as of that day (1 while the business has none).
 */
import type { Unit } from '../store/unit.ts';
import { text, type Body } from './validate.ts';

const PAR = '1.000000';

/** The rate of `currency` on `date` (YYYY-MM-DD), with the six decimals documents carry. */
export async function rateOn(unit: Unit, currency: string, date: string): Promise<string> {
  if (currency === unit.state.palette?.currency) return PAR;
  let latest: { AsOfDate: string; Rate: string } | null = null;
  for (const rate of await unit.all('exchange_rate')) {
    if (rate.SourceCurrencyCode !== currency || rate.AsOfDate > date) continue;
    if (latest === null || rate.AsOfDate > latest.AsOfDate) latest = rate;
  }
  return latest === null ? PAR : Number(latest.Rate).toFixed(6);
}

export async function writtenRate(
  unit: Unit,
  body: Body,
  document: { CurrencyCode: string; TxnDate: string; ExchangeRate: string },
  isNew: boolean,
): Promise<string> {
  const sent = Object.hasOwn(body, 'ExchangeRate') ? text(body, 'ExchangeRate') : undefined;
  if (sent !== undefined) return sent;
  const moved = isNew || Object.hasOwn(body, 'ExchangeRate') || Object.hasOwn(body, 'CurrencyCode') || Object.hasOwn(body, 'TxnDate');
  return moved ? rateOn(unit, document.CurrencyCode, document.TxnDate) : document.ExchangeRate;
}
