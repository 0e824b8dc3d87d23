/**
 * Invoices (ACCREC from SANDBOX invoices, ACCPAY from bills), credit notes (ACCRECCREDIT from credit notes,
 * ACCPAYCREDIT from vendor credits) and payments (one per document a SANDBOX payment pays), in Xero's shapes.
 * Lines are tax-exclusive: a line's LineAmount is its amount after discount, before tax.
 */
import type {
  LinkedTxn,
  NativeBill,
  NativeBillPayment,
  NativeCreditNote,
  NativeInvoice,
  NativeLine,
  NativePayment,
  NativeVendorCredit,
} from '../../native.ts';
import { parseCents } from '../../money.ts';
import { minus, num, sum } from '../amounts.ts';
import { renderFields } from '../field-table.ts';
import { uuidOfId } from '../uuid-ids.ts';
import { dateString, msDate } from './dates.ts';
import { DOCUMENT_FIELDS, LINE_FIELDS } from './fields.ts';
import { contactRef } from './render-contacts.ts';
import { accountRef, CLASS_CATEGORY_ID } from './render-ledger.ts';
import { paymentAllocationIds, type Json, type XeroView } from './view.ts';

/** A line's id: the document's and the line's SANDBOX ids, when they fit in a UUID. */
function lineId(docId: string, line: NativeLine): Json {
  const id = `${docId}.${line.LineId}`;
  return Buffer.byteLength(id) <= 16 ? { LineItemID: uuidOfId(id) } : {};
}

async function lineItems(view: XeroView, docId: string, lines: readonly NativeLine[]): Promise<Json[]> {
  const accounts = await view.byId('account');
  const classes = await view.byId('class');
  return lines.map((line) => {
    const discount = parseCents(line.Discount);
    const option = line.ClassId === undefined ? undefined : classes.get(line.ClassId);
    return {
      ...lineId(docId, line),
      ...renderFields(LINE_FIELDS, line),
      ...accountRef(accounts.get(line.AccountId), line.AccountId, 'line'),
      LineAmount: minus(line.SubTotal, line.Discount),
      ...(discount === 0 ? {} : { DiscountAmount: discount / 100 }),
      Tracking:
        option === undefined
          ? []
          : [{ TrackingCategoryID: CLASS_CATEGORY_ID, TrackingOptionID: uuidOfId(option.Id), Name: 'Class', Option: option.Name }],
    };
  });
}

const DOC_STATUS: Readonly<Record<NativeInvoice['Status'], string>> = {
  Draft: 'DRAFT',
  Open: 'AUTHORISED',
  PartiallyPaid: 'AUTHORISED',
  Paid: 'PAID',
  Void: 'VOIDED',
};

const CREDIT_STATUS: Readonly<Record<NativeCreditNote['Status'], string>> = {
  Open: 'AUTHORISED',
  PartiallyApplied: 'AUTHORISED',
  Applied: 'PAID',
  Void: 'VOIDED',
};

const ofType = (links: readonly LinkedTxn[], type: LinkedTxn['TxnType']): LinkedTxn[] => links.filter((l) => l.TxnType === type);

/** A bill (ACCPAY) or an invoice (ACCREC); `deletedAt` renders a deleted one as Xero lists it (Status DELETED). */
export async function renderInvoice(view: XeroView, doc: NativeBill | NativeInvoice, deletedAt: string | null = null): Promise<Json> {
  const bill = 'VendorId' in doc;
  const partyId = bill ? doc.VendorId : doc.CustomerId;
  const paymentIds = await view.paymentIds();
  const payments = ofType(doc.LinkedTxns, bill ? 'BillPayment' : 'Payment');
  const credits = ofType(doc.LinkedTxns, bill ? 'VendorCredit' : 'CreditNote');
  return {
    InvoiceID: uuidOfId(doc.Id),
    Type: bill ? 'ACCPAY' : 'ACCREC',
    InvoiceNumber: doc.DocNumber,
    ...renderFields(DOCUMENT_FIELDS, doc),
    Contact: contactRef((await view.byId('customer', 'vendor')).get(partyId), partyId),
    Date: msDate(doc.TxnDate),
    DateString: dateString(doc.TxnDate),
    DueDate: msDate(doc.DueDate),
    DueDateString: dateString(doc.DueDate),
    Status: deletedAt === null ? DOC_STATUS[doc.Status] : 'DELETED',
    LineAmountTypes: 'Exclusive',
    LineItems: await lineItems(view, doc.Id, doc.Lines),
    SubTotal: minus(doc.SubTotal, doc.TotalDiscount),
    TotalDiscount: num(doc.TotalDiscount),
    AmountDue: num(doc.AmountDue),
    AmountPaid: sum(payments.map((p) => p.Amount)),
    AmountCredited: sum(credits.map((c) => c.Amount)),
    Payments: payments.map((p) => ({
      PaymentID: paymentIds.get(`${p.TxnId}|${doc.Id}`) ?? uuidOfId(p.TxnId),
      Date: msDate(p.Date),
      Amount: num(p.Amount),
    })),
    CreditNotes: credits.map((c) => ({ CreditNoteID: uuidOfId(c.TxnId), Date: msDate(c.Date), AppliedAmount: num(c.Amount) })),
    Prepayments: [],
    Overpayments: [],
    HasAttachments: (await view.attached()).has(doc.Id),
    IsDiscounted: parseCents(doc.TotalDiscount) !== 0,
    HasErrors: false,
    UpdatedDateUTC: msDate(deletedAt ?? doc.UpdatedAt),
  };
}

/** A vendor credit (ACCPAYCREDIT) or a customer credit note (ACCRECCREDIT). */
export async function renderCreditNote(
  view: XeroView,
  credit: NativeVendorCredit | NativeCreditNote,
  deletedAt: string | null = null,
): Promise<Json> {
  const bill = 'VendorId' in credit;
  const partyId = bill ? credit.VendorId : credit.CustomerId;
  const allocations = ofType(credit.LinkedTxns, bill ? 'Bill' : 'Invoice');
  return {
    CreditNoteID: uuidOfId(credit.Id),
    CreditNoteNumber: credit.DocNumber,
    Type: bill ? 'ACCPAYCREDIT' : 'ACCRECCREDIT',
    ...renderFields(DOCUMENT_FIELDS, credit),
    Contact: contactRef((await view.byId('customer', 'vendor')).get(partyId), partyId),
    Date: msDate(credit.TxnDate),
    DateString: dateString(credit.TxnDate),
    Status: deletedAt === null ? CREDIT_STATUS[credit.Status] : 'DELETED',
    LineAmountTypes: 'Exclusive',
    LineItems: await lineItems(view, credit.Id, credit.Lines),
    SubTotal: minus(credit.SubTotal, credit.TotalDiscount),
    RemainingCredit: num(credit.Remaining),
    AppliedAmount: sum(allocations.map((a) => a.Amount)),
    Allocations: allocations.map((a) => ({ Amount: num(a.Amount), Date: msDate(a.Date), Invoice: { InvoiceID: uuidOfId(a.TxnId) } })),
    Payments: [],
    HasAttachments: false,
    UpdatedDateUTC: msDate(deletedAt ?? credit.UpdatedAt),
  };
}

/** One Xero payment per document a SANDBOX payment pays (ACCRECPAYMENT on invoices, ACCPAYPAYMENT on bills). */
export async function renderPayments(view: XeroView, payment: NativePayment | NativeBillPayment, deletedAt: string | null = null): Promise<Json[]> {
  const bill = 'VendorId' in payment;
  const partyId = bill ? payment.VendorId : payment.CustomerId;
  const accountId = bill ? payment.BankAccountId : payment.DepositToAccountId;
  const accounts = await view.byId('account');
  const contact = contactRef((await view.byId('customer', 'vendor')).get(partyId), partyId);
  return paymentAllocationIds(payment, bill ? 'Bill' : 'Invoice').map((allocation) => ({
    PaymentID: allocation.id,
    Date: msDate(payment.TxnDate),
    Amount: num(allocation.amount),
    BankAmount: num(allocation.amount),
    CurrencyRate: Number(payment.ExchangeRate),
    ...(payment.Reference === undefined ? {} : { Reference: payment.Reference }),
    PaymentType: bill ? 'ACCPAYPAYMENT' : 'ACCRECPAYMENT',
    Status: deletedAt === null && payment.Status === 'Active' ? 'AUTHORISED' : 'DELETED',
    IsReconciled: false,
    Account: accountRef(accounts.get(accountId), accountId, 'ref'),
    Invoice: { InvoiceID: uuidOfId(allocation.docId), Type: bill ? 'ACCPAY' : 'ACCREC', CurrencyCode: payment.CurrencyCode, Contact: contact },
    HasAccount: true,
    UpdatedDateUTC: msDate(deletedAt ?? payment.UpdatedAt),
  }));
}
