/**
 * The business's exchange rates: for each currency of its list other than the home one, a rate as the books begin
 * and at the start of every quarter after, in QuickBooks Online's direction (units of the home currency that one unit
 * of the currency is worth). The rates wander a little from quarter to quarter and end at the rate the currency list
 * shows. Drawn from a generator of their own after every other record, so the books before them are unchanged; every
 * document is in the home currency at rate 1, so no rate moves a posting.
 */
import { stamp } from '../dates.ts';
import { monthOf, monthStart, nextMonth } from '../ledger.ts';
import type { NativeExchangeRate } from '../native.ts';
import { deriveSeed, Rng } from '../prng.ts';
import type { Emitter } from './emitter.ts';
import { USD_RATES } from './profiles.ts';
import { listedRate } from './reference.ts';

/** Most a rate moves from one quarter (or one revision) to the next: 3%. */
const DRIFT_BASIS_POINTS = 300;

/** A rate as decimal text with seven significant digits (a yen is worth 0.006613757 dollars). */
export function formatExchangeRate(rate: number): string {
  return String(Number(rate.toPrecision(7)));
}

/** The rate a currency's listed rate (units of it per unit of the home currency) stands for, in QuickBooks' direction. */
export function rateOfListed(listed: string): number {
  return 1 / Number(listed);
}

/** What a rate is multiplied by from one date to the next: up to DRIFT_BASIS_POINTS either way. */
export function drift(rng: Rng): number {
  return 1 + rng.int(-DRIFT_BASIS_POINTS, DRIFT_BASIS_POINTS) / 10_000;
}

/** The books' first day and the first day of every quarter after it, up to asOf. */
export function rateDates(start: string, asOf: string): string[] {
  const dates = [start];
  for (let month = nextMonth(monthOf(start)); month <= monthOf(asOf); month = nextMonth(month)) {
    if (['01', '04', '07', '10'].includes(month.slice(5, 7))) dates.push(monthStart(month));
  }
  return dates;
}

export function generateExchangeRates(seed: number, out: Emitter, home: string, start: string, asOf: string): NativeExchangeRate[] {
  const rng = new Rng(deriveSeed(seed, 'exchange-rate'));
  const dates = rateDates(start, asOf);
  const rates: NativeExchangeRate[] = [];
  for (const code of Object.keys(USD_RATES)) {
    if (code === home) continue;
    // Backwards from today's rate, so the latest is the one the currency list shows.
    const values = [rateOfListed(listedRate(code, home))];
    while (values.length < dates.length) values.unshift((values[0] ?? 1) / drift(rng));
    for (const [n, date] of dates.entries()) {
      const at = stamp(date, rng.int(28_800, 36_000));
      rates.push({
        Id: out.nextId('exchange_rate'),
        CreatedAt: at,
        UpdatedAt: at,
        SourceCurrencyCode: code,
        TargetCurrencyCode: home,
        Rate: formatExchangeRate(values[n] ?? 1),
        AsOfDate: date,
      });
    }
  }
  for (const rate of rates) out.push('exchange_rate', rate);
  return rates;
}
