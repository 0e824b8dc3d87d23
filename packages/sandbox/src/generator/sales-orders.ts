/**
 * The business's sales orders: most of them preceded one of its invoices (closed, with the invoice's lines, issued
 * days before it); the rest came in near the end of the books and are still open or awaiting approval. Orders post
 * nothing. The invoices are picked while the books are generated, without drawing from the books' generator, and
 * the orders are made from a generator of their own after every other record, so the books before them are what
 * they were before sales orders existed.
 */
import { totalsOf } from '../books.ts';
import { addDays, stamp } from '../dates.ts';
import { buildLines, salesLines, type Palette } from '../documents.ts';
import type { NativeInvoice, NativeSalesOrder } from '../native.ts';
import { deriveSeed, Rng } from '../prng.ts';
import type { Emitter, GeneratedRecord } from './emitter.ts';
import type { Reference } from './reference.ts';

/** Sales orders of a business of about `size` records: a modest number, growing slowly with the books. */
export function salesOrderCount(size: number): number {
  return Math.min(80, Math.max(6, Math.round(Math.sqrt(size) / 2)));
}

/** Share of the orders that were invoiced (closed); the others are open or awaiting approval. */
const INVOICED_SHARE = 0.7;

/**
 * Invoices that sales orders preceded: a uniform sample of the invoices as they are generated (reservoir sampling),
 * of a fixed size, so that books of any size hold only a few copies in memory.
 */
export class InvoicedOrders {
  readonly #rng: Rng;
  readonly #capacity: number;
  readonly #picked: NativeInvoice[] = [];
  #seen = 0;

  constructor(seed: number, size: number) {
    this.#rng = new Rng(deriveSeed(seed, 'sales-order-invoices'));
    this.#capacity = Math.round(salesOrderCount(size) * INVOICED_SHARE);
  }

  /** Looks at freshly generated records; drafts and void invoices were never ordered. */
  observe(records: readonly GeneratedRecord[]): void {
    for (const record of records) {
      if (record.type !== 'invoice') continue;
      // Generated records of the invoice collection have its native shape by construction.
      const invoice = record.data as NativeInvoice;
      if (invoice.Status === 'Draft' || invoice.Status === 'Void') continue;
      this.#seen++;
      if (this.#picked.length < this.#capacity) {
        this.#picked.push(structuredClone(invoice));
      } else {
        const slot = this.#rng.int(0, this.#seen - 1);
        if (slot < this.#capacity) this.#picked[slot] = structuredClone(invoice);
      }
    }
  }

  /** The picked invoices, oldest first. */
  invoices(): NativeInvoice[] {
    return [...this.#picked].sort((a, b) => (a.TxnDate < b.TxnDate ? -1 : a.TxnDate > b.TxnDate ? 1 : a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0));
  }
}

const later = (a: string, b: string): string => (a > b ? a : b);

export function generateSalesOrders(
  seed: number,
  size: number,
  out: Emitter,
  ref: Reference,
  palette: Palette,
  asOf: string,
  invoiced: InvoicedOrders,
): NativeSalesOrder[] {
  const rng = new Rng(deriveSeed(seed, 'sales-order'));
  const start = ref.company.CreatedAt.slice(0, 10);
  const orders: NativeSalesOrder[] = [];
  const make = (fields: Omit<NativeSalesOrder, 'Id' | 'DocNumber' | 'CustomerPoNumber'>): NativeSalesOrder => {
    const id = out.nextId('sales_order');
    const order: NativeSalesOrder = { Id: id, DocNumber: `SO-${String(1000 + Number(id.slice(3)))}`, ...fields };
    if (rng.chance(0.6)) order.CustomerPoNumber = `PO-${rng.int(10_000, 99_999)}`;
    orders.push(order);
    out.push('sales_order', order);
    return order;
  };

  for (const invoice of invoiced.invoices()) {
    // Ordered one to three weeks before it was invoiced, never before the books began.
    const date = later(start, addDays(invoice.TxnDate, -rng.int(1, 21)));
    const createdAt = stamp(date, rng.int(28_800, 64_800));
    const order = make({
      CreatedAt: createdAt,
      UpdatedAt: later(createdAt, invoice.CreatedAt),
      CustomerId: invoice.CustomerId,
      TxnDate: date,
      CurrencyCode: invoice.CurrencyCode,
      ExchangeRate: invoice.ExchangeRate,
      Status: 'Closed',
      Lines: structuredClone(invoice.Lines),
      SubTotal: invoice.SubTotal,
      TotalDiscount: invoice.TotalDiscount,
      TotalTax: invoice.TotalTax,
      Total: invoice.Total,
      InvoiceIds: [invoice.Id],
    });
    if (invoice.TermId !== undefined) order.TermId = invoice.TermId;
  }

  const customers = ref.customers.filter((c) => c.Status === 'Active');
  for (let n = orders.length; n < salesOrderCount(size) && customers.length > 0; n++) {
    const customer = rng.pick(customers);
    const date = later(start, addDays(asOf, -rng.int(0, 30)));
    const lines = buildLines(salesLines(rng, palette));
    const createdAt = stamp(date, rng.int(28_800, 64_800));
    const order = make({
      CreatedAt: createdAt,
      UpdatedAt: createdAt,
      CustomerId: customer.Id,
      TxnDate: date,
      CurrencyCode: palette.currency,
      ExchangeRate: '1.000000',
      Status: rng.chance(0.25) ? 'PendingApproval' : 'Open',
      Lines: lines,
      ...totalsOf(lines),
      InvoiceIds: [],
    });
    if (customer.TermId !== undefined) order.TermId = customer.TermId;
    if (rng.chance(0.2)) order.Memo = 'Deliver to the loading dock';
  }
  return orders;
}
