/** Writes of bill payments: allocations move amount due and status of the bills they pay. */
import { allocate, dueCents, unallocate } from '../documents.ts';
import { formatCents } from '../money.ts';
import type { NativeBillPayment } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { pick } from './documents.ts';
import { writtenRate } from './rates.ts';
import { account, cents, date, existing, list, notFound, oneOf, setOptional, text, type Body } from './validate.ts';

async function release(unit: Unit, payment: NativeBillPayment): Promise<void> {
  await unit.load(
    'bill',
    payment.LinkedTxns.map((l) => l.TxnId),
  );
  for (const link of payment.LinkedTxns) {
    const bill = unit.peek('bill', link.TxnId);
    if (bill === null) continue;
    unallocate(bill, payment.Id, unit.at);
    unit.touch('bill', bill);
  }
}

async function writePayment(unit: Unit, body: Body, base: NativeBillPayment | null): Promise<NativeBillPayment> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  if (base?.Status === 'Voided') throw invalid('BusinessRule', `bill payment ${base.Id} is void and cannot change`, 'Status');
  const vendorId = get('VendorId', () => text(body, 'VendorId', true), base?.VendorId ?? '');
  await existing(unit, 'vendor', vendorId, 'VendorId');
  const bankAccountId = get('BankAccountId', () => text(body, 'BankAccountId', true), base?.BankAccountId ?? '');
  await account(unit, bankAccountId, 'BankAccountId', ['Bank', 'CreditCard']);
  const status = oneOf(body, 'Status', ['Active', 'Voided'] as const, 'Active');
  const payment: NativeBillPayment = base ?? {
    Id: unit.nextId('bill_payment'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    VendorId: vendorId,
    BankAccountId: bankAccountId,
    TxnDate: '',
    CurrencyCode: '',
    ExchangeRate: '1.000000',
    Status: 'Active',
    Amount: '0.00',
    LinkedTxns: [],
  };
  Object.assign(payment, {
    VendorId: vendorId,
    BankAccountId: bankAccountId,
    TxnDate: get('TxnDate', () => date(body, 'TxnDate', true), payment.TxnDate),
    CurrencyCode: get('CurrencyCode', () => text(body, 'CurrencyCode') ?? unit.state.palette?.currency ?? 'USD', payment.CurrencyCode),
  });
  payment.ExchangeRate = await writtenRate(unit, body, payment, base === null);
  for (const field of ['Reference', 'Memo', 'DocNumber'] as const) {
    const value = get(field, () => text(body, field), payment[field]);
    setOptional(payment, field, value);
  }
  const replace = base === null || Object.hasOwn(body, 'Bills') || status === 'Voided';
  if (base !== null && replace) await release(unit, payment);
  if (status === 'Voided') {
    // A void payment keeps what it paid on record; the bills no longer count it.
    payment.Status = 'Voided';
  } else if (replace) {
    const bills = list(body, 'Bills', true);
    if (bills.length === 0) throw invalid('RequiredField', 'Bills must name at least one bill to pay', 'Bills');
    const linked: NativeBillPayment['LinkedTxns'] = [];
    let total = 0;
    for (const [n, entry] of bills.entries()) {
      const field = `Bills[${n}]`;
      const bill = await existing(unit, 'bill', text(entry, 'BillId', true), `${field}.BillId`);
      const amount = cents(entry, 'Amount', true);
      if (bill === undefined) continue;
      if (bill.VendorId !== payment.VendorId) throw invalid('BusinessRule', `bill ${bill.Id} belongs to another vendor`, `${field}.BillId`);
      if (bill.Status === 'Void' || bill.Status === 'Draft')
        throw invalid('BusinessRule', `bill ${bill.Id} is ${bill.Status} and cannot be paid`, `${field}.BillId`);
      if (amount <= 0) throw invalid('InvalidAmount', `${field}.Amount must be positive`, `${field}.Amount`);
      if (amount > dueCents(bill))
        throw invalid('BusinessRule', `cannot pay ${formatCents(amount)} on bill ${bill.Id}: only ${bill.AmountDue} is due`, `${field}.Amount`);
      linked.push(allocate(bill, payment.Id, 'BillPayment', amount, payment.TxnDate, unit.at));
      unit.touch('bill', bill);
      total += amount;
    }
    payment.LinkedTxns = linked;
    payment.Amount = formatCents(total);
  }
  if (base === null) unit.create('bill_payment', payment);
  else unit.touch('bill_payment', payment);
  return payment;
}

async function loadPayment(unit: Unit, id: string): Promise<NativeBillPayment> {
  const payment = await unit.get('bill_payment', id);
  if (payment === null) throw notFound('bill_payment', id);
  return payment;
}

export const billPaymentWriter = {
  create: (unit: Unit, body: Body) => writePayment(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writePayment(unit, body, await loadPayment(unit, id)),
  delete: async (unit: Unit, id: string) => {
    const payment = await loadPayment(unit, id);
    if (payment.Status === 'Active') await release(unit, payment);
    unit.remove('bill_payment', id);
  },
};
