/**
 * Cash sales over the history: a modest number by the size of the books (about one record in a hundred), each paid
 * into the checking account on the day. Drawn from a generator of their own (derived from the seed) once every
 * transaction of the months is out, so the records before them are those of books without them; they come before
 * the closing, whose balances, balance sheets and statements take in their postings.
 */
import { addDays, daysBetween, stamp } from '../dates.ts';
import { drawSalesReceipt, type Palette } from '../documents.ts';
import type { NativeContact, NativeSalesReceipt } from '../native.ts';
import { deriveSeed, Rng } from '../prng.ts';
import type { Emitter } from './emitter.ts';

/** Sales receipts of books of about `size` records. */
export function salesReceiptCount(size: number): number {
  return Math.max(6, Math.round(size / 100));
}

export function generateSalesReceipts(
  seed: number,
  size: number,
  out: Emitter,
  palette: Palette,
  customers: readonly NativeContact[],
  from: string,
  asOf: string,
): NativeSalesReceipt[] {
  const rng = new Rng(deriveSeed(seed, 'sales-receipt'));
  const days = Math.max(0, daysBetween(from, asOf));
  const dates: string[] = [];
  for (let n = salesReceiptCount(size); n > 0; n--) dates.push(addDays(from, rng.int(0, days)));
  // In date order, so numbers rise with the days as on a till.
  dates.sort();
  const active = customers.filter((c) => c.Status === 'Active');
  return dates.map((date) => {
    const customer = active.length > 0 && rng.chance(0.7) ? rng.pick(active) : undefined;
    const receipt = drawSalesReceipt(rng, palette, {
      id: out.nextId('sales_receipt'),
      date,
      stamps: atSale(rng, date),
      customer,
    });
    out.push('sales_receipt', receipt);
    return receipt;
  });
}

/** Entered when the sale was rung up, during business hours. */
function atSale(rng: Rng, date: string): { CreatedAt: string; UpdatedAt: string } {
  const at = stamp(date, rng.int(32_400, 64_800));
  return { CreatedAt: at, UpdatedAt: at };
}
