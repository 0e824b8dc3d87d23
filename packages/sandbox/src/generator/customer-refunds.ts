/**
 * Money paid back to customers: now and then a named customer brings back one line of a cash sale and is refunded
 * it in full, out of the account the sale was deposited to, a few days later. Drawn from a generator of their own
 * after the sales receipts, so every record before them is what it was without them; before the closing, whose
 * balances take in what they post (the line's income and tax back out, the bank credited).
 */
import { totalsOf } from '../books.ts';
import { addDays, stamp } from '../dates.ts';
import type { NativeCustomerRefund, NativeSalesReceipt } from '../native.ts';
import { deriveSeed, Rng } from '../prng.ts';
import type { Emitter } from './emitter.ts';

/** Refunds of books of about `size` records: one in 300, at least three. */
export function customerRefundCount(size: number): number {
  return Math.max(3, Math.round(size / 300));
}

/** The seller-facing number of the nth refund (from its id's digits), as receipts are numbered. */
export const refundNumber = (id: string): string => `RF-${String(1000 + Number(id.slice(id.indexOf('-') + 1)))}`;

export function generateCustomerRefunds(seed: number, size: number, out: Emitter, receipts: readonly NativeSalesReceipt[], asOf: string): void {
  const rng = new Rng(deriveSeed(seed, 'customer-refund'));
  const refundable = receipts.filter((r) => r.CustomerId !== undefined && r.TxnDate < asOf);
  const chosen: { receipt: NativeSalesReceipt; date: string }[] = [];
  // Each sale refunded at most once, so no refund gives back more than was paid.
  for (let n = Math.min(customerRefundCount(size), refundable.length); n > 0; n--) {
    const [receipt] = refundable.splice(rng.int(0, refundable.length - 1), 1);
    if (receipt === undefined) break;
    const later = addDays(receipt.TxnDate, rng.int(1, 30));
    chosen.push({ receipt, date: later > asOf ? asOf : later });
  }
  // In date order, so numbers rise with the days.
  chosen.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const { receipt, date } of chosen) out.push('customer_refund', drawRefund(rng, out.nextId('customer_refund'), receipt, date));
}

function drawRefund(rng: Rng, id: string, receipt: NativeSalesReceipt, date: string): NativeCustomerRefund {
  const sold = rng.pick(receipt.Lines);
  const lines = [{ ...sold, LineId: '1' }];
  const at = stamp(date, rng.int(32_400, 64_800));
  const refund: NativeCustomerRefund = {
    Id: id,
    CreatedAt: at,
    UpdatedAt: at,
    DocNumber: refundNumber(id),
    RefundFromAccountId: receipt.DepositToAccountId,
    TxnDate: date,
    CurrencyCode: receipt.CurrencyCode,
    ExchangeRate: receipt.ExchangeRate,
    PaymentMethod: receipt.PaymentMethod,
    SalesReceiptId: receipt.Id,
    Lines: lines,
    ...totalsOf(lines),
  };
  if (receipt.CustomerId !== undefined) refund.CustomerId = receipt.CustomerId;
  if (rng.chance(0.5)) refund.Memo = `Refund of ${receipt.DocNumber}`;
  return refund;
}
