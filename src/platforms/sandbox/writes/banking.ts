/** Writes of bank deposits, bank transfers and journal entries. */
import { journalLine, journalLineCents } from '../books.ts';
import { ROLES } from '../generator/chart.ts';
import { formatCents, parseCents } from '../money.ts';
import type { NativeAttachment, NativeDeposit, NativeJournalEntry, NativePayment, NativeTaxCode, NativeTransfer } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { pick } from './documents.ts';
import { account, cents, date, existing, list, notFound, oneOf, text, type Body } from './validate.ts';

async function releasePayments(unit: Unit, deposit: NativeDeposit): Promise<void> {
  await unit.load('invoice_payment', deposit.Payments.map((p) => p.PaymentId));
  for (const entry of deposit.Payments) {
    const payment = unit.peek<NativePayment>('invoice_payment', entry.PaymentId);
    if (payment === null || payment.DepositId !== deposit.Id) continue;
    delete payment.DepositId;
    unit.touch('invoice_payment', payment);
  }
}

async function writeDeposit(unit: Unit, body: Body, base: NativeDeposit | null): Promise<NativeDeposit> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  const bankAccountId = get('BankAccountId', () => text(body, 'BankAccountId', true), base?.BankAccountId ?? '');
  await account(unit, bankAccountId, 'BankAccountId', ['Bank']);
  const deposit: NativeDeposit = base ?? {
    Id: unit.nextId('bank_deposit'), CreatedAt: unit.at, UpdatedAt: unit.at, BankAccountId: bankAccountId, TxnDate: '', CurrencyCode: '',
    Total: '0.00', Payments: [], Lines: [],
  };
  deposit.BankAccountId = bankAccountId;
  deposit.TxnDate = get('TxnDate', () => date(body, 'TxnDate', true), deposit.TxnDate);
  deposit.CurrencyCode = get('CurrencyCode', () => text(body, 'CurrencyCode') ?? unit.state.palette?.currency ?? 'USD', deposit.CurrencyCode);
  for (const field of ['Memo', 'DepartmentId', 'SubsidiaryId'] as const) {
    const value = get(field, () => text(body, field), deposit[field]);
    if (field !== 'Memo') await existing(unit, field === 'DepartmentId' ? 'department' : 'subsidiary', value, field);
    if (value === undefined) delete deposit[field];
    else deposit[field] = value;
  }
  if (base === null || Object.hasOwn(body, 'Payments')) {
    if (base !== null) await releasePayments(unit, deposit);
    deposit.Payments = [];
    for (const [n, entry] of list(body, 'Payments').entries()) {
      const field = `Payments[${n}]`;
      const payment = await existing<NativePayment>(unit, 'invoice_payment', text(entry, 'PaymentId', true), `${field}.PaymentId`);
      if (payment === undefined) continue;
      if (payment.Status !== 'Active' || payment.DepositToAccountId !== ROLES.UndepositedFunds) {
        throw invalid('BusinessRule', `payment ${payment.Id} is not waiting in undeposited funds`, `${field}.PaymentId`);
      }
      if (payment.DepositId !== undefined) throw invalid('BusinessRule', `payment ${payment.Id} is already in deposit ${payment.DepositId}`, `${field}.PaymentId`);
      const amount = cents(entry, 'Amount');
      if (amount !== undefined && amount !== parseCents(payment.Amount)) throw invalid('BusinessRule', `payment ${payment.Id} is for ${payment.Amount}; a deposit takes it whole`, `${field}.Amount`);
      payment.DepositId = deposit.Id;
      unit.touch('invoice_payment', payment);
      deposit.Payments.push({ PaymentId: payment.Id, Amount: payment.Amount });
    }
  }
  if (base === null || Object.hasOwn(body, 'Lines')) {
    deposit.Lines = [];
    for (const [n, line] of list(body, 'Lines').entries()) {
      const field = `Lines[${n}]`;
      const accountId = text(line, 'AccountId', true);
      await account(unit, accountId, `${field}.AccountId`);
      const out: NativeDeposit['Lines'][number] = { LineId: String(n + 1), AccountId: accountId, Amount: formatCents(cents(line, 'Amount', true)) };
      const description = text(line, 'Description');
      if (description !== undefined) out.Description = description;
      for (const [key, type] of [['CustomerId', 'customer'], ['VendorId', 'vendor'], ['ClassId', 'class'], ['DepartmentId', 'department'], ['LocationId', 'location'], ['ProjectId', 'project'], ['TaxCodeId', 'tax_rate']] as const) {
        const id = text(line, key);
        if ((await existing(unit, type, id, `${field}.${key}`)) !== undefined) out[key] = id;
      }
      deposit.Lines.push(out);
    }
  }
  if (deposit.Payments.length === 0 && deposit.Lines.length === 0) throw invalid('RequiredField', 'a deposit needs at least one payment or line', 'Lines');
  const total = deposit.Payments.reduce((s, p) => s + parseCents(p.Amount), 0) + deposit.Lines.reduce((s, l) => s + parseCents(l.Amount), 0);
  deposit.Total = formatCents(total);
  if (base === null) unit.create('bank_deposit', deposit);
  else unit.touch('bank_deposit', deposit);
  return deposit;
}

async function loadOrFail<T extends { Id: string }>(unit: Unit, type: 'bank_deposit' | 'bank_transfer' | 'journal_entry', id: string): Promise<T> {
  const record = await unit.get(type, id);
  if (record === null) throw notFound(type, id);
  return record as unknown as T;
}

export const depositWriter = {
  create: (unit: Unit, body: Body) => writeDeposit(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeDeposit(unit, body, await loadOrFail<NativeDeposit>(unit, 'bank_deposit', id)),
  delete: async (unit: Unit, id: string) => {
    await releasePayments(unit, await loadOrFail<NativeDeposit>(unit, 'bank_deposit', id));
    unit.remove('bank_deposit', id);
  },
};
