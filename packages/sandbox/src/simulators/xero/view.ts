/** One API call's view of the books (the kit's), with Xero's lookups: payments' Xero ids, records with files, the company. */
import type { NativeBillPayment, NativeOf, NativePayment } from '../../native.ts';
import { uuidOfId } from '../uuid-ids.ts';
import { BooksView } from '../view.ts';

export type Json = Record<string, unknown>;

/** The Xero ids of a payment's allocations: Xero pays one document per payment, so a SANDBOX payment of several is several. */
export function paymentAllocationIds(
  payment: NativePayment | NativeBillPayment,
  documentType: 'Invoice' | 'Bill',
): { id: string; docId: string; amount: string; date: string }[] {
  return payment.LinkedTxns.filter((l) => l.TxnType === documentType).map((link, k) => ({
    id: uuidOfId(k === 0 ? payment.Id : `${payment.Id}/${k}`),
    docId: link.TxnId,
    amount: link.Amount,
    date: link.Date,
  }));
}

export class XeroView extends BooksView {
  /** The Xero PaymentID of each (payment, document) allocation, keyed `<payment id>|<document id>`. */
  paymentIds(): Promise<Map<string, string>> {
    return this.once('paymentIds', async () => {
      const ids = new Map<string, string>();
      for (const p of await this.all('invoice_payment')) for (const a of paymentAllocationIds(p, 'Invoice')) ids.set(`${p.Id}|${a.docId}`, a.id);
      for (const p of await this.all('bill_payment')) for (const a of paymentAllocationIds(p, 'Bill')) ids.set(`${p.Id}|${a.docId}`, a.id);
      return ids;
    });
  }

  /** SANDBOX ids of the records that have files attached. */
  attached(): Promise<Set<string>> {
    return this.once('attached', async () => new Set((await this.all('attachment')).map((a) => a.ParentId)));
  }

  async company(): Promise<NativeOf['company_info'] | null> {
    return (await this.all('company_info'))[0] ?? null;
  }
}
