/** Writes of bill payments and invoice payments: allocations move amount due and status of the documents they pay. */
import { allocate, dueCents, unallocate } from '../documents.ts';
import { formatCents, parseCents } from '../money.ts';
import type { NativeAccount, NativeBillPayment, NativePayment, TxnType } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { pick, stringAt } from './documents.ts';
import { writtenRate } from './rates.ts';
import { account, cents, date, existing, list, notFound, oneOf, setOptional, text, type Body } from './validate.ts';

type Payment = NativeBillPayment | NativePayment;

/** What differs between paying bills (money out) and being paid for invoices (money in); the rules are the same. */
interface PaymentSide {
  type: 'bill_payment' | 'invoice_payment';
  docType: 'bill' | 'invoice';
  party: 'VendorId' | 'CustomerId';
  partyType: 'vendor' | 'customer';
  /** The field naming the account the money leaves (bill) or arrives in (invoice), and the kinds it may be. */
  bank: 'BankAccountId' | 'DepositToAccountId';
  bankTypes: readonly NativeAccount['Type'][];
  /** The body's list of documents paid, and each entry's id field. */
  docs: 'Bills' | 'Invoices';
  docId: 'BillId' | 'InvoiceId';
  txnType: TxnType;
  /** Optional text fields the payment keeps (an invoice payment has no document number of its own). */
  texts: readonly TextField[];
}

type TextField = 'Reference' | 'Memo' | 'DocNumber';

const BILL_PAYMENT: PaymentSide = {
  type: 'bill_payment',
  docType: 'bill',
  party: 'VendorId',
  partyType: 'vendor',
  bank: 'BankAccountId',
  bankTypes: ['Bank', 'CreditCard'],
  docs: 'Bills',
  docId: 'BillId',
  txnType: 'BillPayment',
  texts: ['Reference', 'Memo', 'DocNumber'],
};

// Received into a bank account, or into Undeposited Funds (an other current asset) for a later bank deposit.
const INVOICE_PAYMENT: PaymentSide = {
  type: 'invoice_payment',
  docType: 'invoice',
  party: 'CustomerId',
  partyType: 'customer',
  bank: 'DepositToAccountId',
  bankTypes: ['Bank', 'OtherCurrentAsset'],
  docs: 'Invoices',
  docId: 'InvoiceId',
  txnType: 'Payment',
  texts: ['Reference', 'Memo'],
};

async function release(unit: Unit, side: PaymentSide, payment: Payment): Promise<void> {
  await unit.load(
    side.docType,
    payment.LinkedTxns.map((l) => l.TxnId),
  );
  for (const link of payment.LinkedTxns) {
    const doc = unit.peek(side.docType, link.TxnId);
    if (doc === null) continue;
    unallocate(doc, payment.Id, unit.at);
    unit.touch(side.docType, doc);
  }
}

/** A payment a bank deposit has taken out of Undeposited Funds is part of that deposit: it changes only after the deposit lets it go. */
function refuseIfDeposited(payment: Payment): void {
  if ('DepositId' in payment && payment.DepositId !== undefined) {
    throw invalid('BusinessRule', `payment ${payment.Id} is in bank deposit ${payment.DepositId}; remove it from the deposit first`, 'DepositId');
  }
}

function newPayment(unit: Unit, side: PaymentSide, partyId: string, bankId: string): Payment {
  const common = {
    Id: unit.nextId(side.type),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    TxnDate: '',
    CurrencyCode: '',
    ExchangeRate: '1.000000',
    Status: 'Active' as const,
    Amount: '0.00',
    LinkedTxns: [],
  };
  return side.type === 'bill_payment'
    ? { ...common, VendorId: partyId, BankAccountId: bankId }
    : { ...common, CustomerId: partyId, DepositToAccountId: bankId, PaymentMethod: 'Other' };
}

async function writePayment(side: PaymentSide, unit: Unit, body: Body, base: Payment | null): Promise<Payment> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  const fields = base as Record<string, unknown> | null;
  if (base?.Status === 'Voided') throw invalid('BusinessRule', `${side.type.replace('_', ' ')} ${base.Id} is void and cannot change`, 'Status');
  if (base !== null) refuseIfDeposited(base);
  const partyId = get(side.party, () => text(body, side.party, true), stringAt(fields, side.party));
  await existing(unit, side.partyType, partyId, side.party);
  const bankId = get(side.bank, () => text(body, side.bank, true), stringAt(fields, side.bank));
  await account(unit, bankId, side.bank, side.bankTypes);
  const status = oneOf(body, 'Status', ['Active', 'Voided'] as const, 'Active');
  const payment = base ?? newPayment(unit, side, partyId, bankId);
  Object.assign(payment, {
    [side.party]: partyId,
    [side.bank]: bankId,
    TxnDate: get('TxnDate', () => date(body, 'TxnDate', true), payment.TxnDate),
    CurrencyCode: get('CurrencyCode', () => text(body, 'CurrencyCode') ?? unit.state.palette?.currency ?? 'USD', payment.CurrencyCode),
  });
  payment.ExchangeRate = await writtenRate(unit, body, payment, base === null);
  const texts: Partial<Record<TextField, string>> = payment;
  for (const field of side.texts)
    setOptional(
      texts,
      field,
      get(field, () => text(body, field), texts[field]),
    );
  const replace = base === null || Object.hasOwn(body, side.docs) || status === 'Voided';
  if (base !== null && replace) await release(unit, side, payment);
  if (status === 'Voided') {
    // A void payment keeps what it paid on record; the documents no longer count it.
    payment.Status = 'Voided';
  } else if (replace) {
    payment.LinkedTxns = await allocations(side, unit, body, payment);
    payment.Amount = formatCents(payment.LinkedTxns.reduce((sum, l) => sum + parseCents(l.Amount), 0));
  }
  if (base === null) unit.create(side.type, payment);
  else unit.touch(side.type, payment);
  return payment;
}

/** The documents the body pays, allocated on both sides; every one of the payment's party, open, and with enough due. */
async function allocations(side: PaymentSide, unit: Unit, body: Body, payment: Payment): Promise<Payment['LinkedTxns']> {
  const entries = list(body, side.docs, true);
  if (entries.length === 0) throw invalid('RequiredField', `${side.docs} must name at least one ${side.docType} to pay`, side.docs);
  const partyId = (payment as Record<string, unknown>)[side.party];
  const linked: Payment['LinkedTxns'] = [];
  for (const [n, entry] of entries.entries()) {
    const field = `${side.docs}[${n}]`;
    const doc = await existing(unit, side.docType, text(entry, side.docId, true), `${field}.${side.docId}`);
    const amount = cents(entry, 'Amount', true);
    if (doc === undefined) continue;
    if ((doc as Record<string, unknown>)[side.party] !== partyId)
      throw invalid('BusinessRule', `${side.docType} ${doc.Id} belongs to another ${side.partyType}`, `${field}.${side.docId}`);
    if (doc.Status === 'Void' || doc.Status === 'Draft')
      throw invalid('BusinessRule', `${side.docType} ${doc.Id} is ${doc.Status} and cannot be paid`, `${field}.${side.docId}`);
    if (amount <= 0) throw invalid('InvalidAmount', `${field}.Amount must be positive`, `${field}.Amount`);
    if (amount > dueCents(doc))
      throw invalid(
        'BusinessRule',
        `cannot pay ${formatCents(amount)} on ${side.docType} ${doc.Id}: only ${doc.AmountDue} is due`,
        `${field}.Amount`,
      );
    linked.push(allocate(doc, payment.Id, side.txnType, amount, payment.TxnDate, unit.at));
    unit.touch(side.docType, doc);
  }
  return linked;
}

async function loadPayment(unit: Unit, side: PaymentSide, id: string): Promise<Payment> {
  const payment = side.type === 'bill_payment' ? await unit.get('bill_payment', id) : await unit.get('invoice_payment', id);
  if (payment === null) throw notFound(side.type, id);
  return payment;
}

function paymentWriter(side: PaymentSide) {
  return {
    create: (unit: Unit, body: Body) => writePayment(side, unit, body, null),
    update: async (unit: Unit, id: string, body: Body) => writePayment(side, unit, body, await loadPayment(unit, side, id)),
    delete: async (unit: Unit, id: string) => {
      const payment = await loadPayment(unit, side, id);
      refuseIfDeposited(payment);
      if (payment.Status === 'Active') await release(unit, side, payment);
      unit.remove(side.type, id);
    },
  };
}

export const billPaymentWriter = paymentWriter(BILL_PAYMENT);
export const invoicePaymentWriter = paymentWriter(INVOICE_PAYMENT);
