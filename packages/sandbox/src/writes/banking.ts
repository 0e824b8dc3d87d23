/** Writes of bank deposits, bank transfers and journal entries. */
import { journalLine, journalLineCents } from '../books.ts';
import { ROLES } from '../generator/chart.ts';
import { formatCents, parseCents } from '../money.ts';
import type { NativeDeposit, NativeJournalEntry, NativeJournalLine, NativeOf, NativeTransfer } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { removeAttachmentsOf } from './attachments.ts';
import { pick } from './documents.ts';
import { writtenRate } from './rates.ts';
import { account, cents, date, existing, list, notFound, oneOf, setOptional, text, type Body } from './validate.ts';

async function releasePayments(unit: Unit, deposit: NativeDeposit): Promise<void> {
  await unit.load(
    'invoice_payment',
    deposit.Payments.map((p) => p.PaymentId),
  );
  for (const entry of deposit.Payments) {
    const payment = unit.peek('invoice_payment', entry.PaymentId);
    if (payment?.DepositId !== deposit.Id) continue;
    delete payment.DepositId;
    unit.touch('invoice_payment', payment);
  }
}

async function writeDeposit(unit: Unit, body: Body, base: NativeDeposit | null): Promise<NativeDeposit> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  const bankAccountId = get('BankAccountId', () => text(body, 'BankAccountId', true), base?.BankAccountId ?? '');
  await account(unit, bankAccountId, 'BankAccountId', ['Bank']);
  const deposit: NativeDeposit = base ?? {
    Id: unit.nextId('bank_deposit'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    BankAccountId: bankAccountId,
    TxnDate: '',
    CurrencyCode: '',
    Total: '0.00',
    Payments: [],
    Lines: [],
  };
  deposit.BankAccountId = bankAccountId;
  deposit.TxnDate = get('TxnDate', () => date(body, 'TxnDate', true), deposit.TxnDate);
  deposit.CurrencyCode = get('CurrencyCode', () => text(body, 'CurrencyCode') ?? unit.state.palette?.currency ?? 'USD', deposit.CurrencyCode);
  for (const field of ['Memo', 'DepartmentId', 'SubsidiaryId'] as const) {
    const value = get(field, () => text(body, field), deposit[field]);
    if (field !== 'Memo') await existing(unit, field === 'DepartmentId' ? 'department' : 'subsidiary', value, field);
    setOptional(deposit, field, value);
  }
  if (base === null || Object.hasOwn(body, 'Payments')) {
    if (base !== null) await releasePayments(unit, deposit);
    deposit.Payments = [];
    for (const [n, entry] of list(body, 'Payments').entries()) {
      const field = `Payments[${n}]`;
      const payment = await existing(unit, 'invoice_payment', text(entry, 'PaymentId', true), `${field}.PaymentId`);
      if (payment === undefined) continue;
      if (payment.Status !== 'Active' || payment.DepositToAccountId !== ROLES.UndepositedFunds) {
        throw invalid('BusinessRule', `payment ${payment.Id} is not waiting in undeposited funds`, `${field}.PaymentId`);
      }
      if (payment.DepositId !== undefined)
        throw invalid('BusinessRule', `payment ${payment.Id} is already in deposit ${payment.DepositId}`, `${field}.PaymentId`);
      const amount = cents(entry, 'Amount');
      if (amount !== undefined && amount !== parseCents(payment.Amount))
        throw invalid('BusinessRule', `payment ${payment.Id} is for ${payment.Amount}; a deposit takes it whole`, `${field}.Amount`);
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
      for (const [key, type] of [
        ['CustomerId', 'customer'],
        ['VendorId', 'vendor'],
        ['ClassId', 'class'],
        ['DepartmentId', 'department'],
        ['LocationId', 'location'],
        ['ProjectId', 'project'],
        ['TaxCodeId', 'tax_rate'],
      ] as const) {
        const id = text(line, key);
        if ((await existing(unit, type, id, `${field}.${key}`)) !== undefined) out[key] = id;
      }
      deposit.Lines.push(out);
    }
  }
  if (deposit.Payments.length === 0 && deposit.Lines.length === 0)
    throw invalid('RequiredField', 'a deposit needs at least one payment or line', 'Lines');
  const total = deposit.Payments.reduce((s, p) => s + parseCents(p.Amount), 0) + deposit.Lines.reduce((s, l) => s + parseCents(l.Amount), 0);
  deposit.Total = formatCents(total);
  if (base === null) unit.create('bank_deposit', deposit);
  else unit.touch('bank_deposit', deposit);
  return deposit;
}

async function loadOrFail<K extends 'bank_deposit' | 'bank_transfer' | 'journal_entry'>(unit: Unit, type: K, id: string): Promise<NativeOf[K]> {
  const record = await unit.get(type, id);
  if (record === null) throw notFound(type, id);
  return record;
}

export const depositWriter = {
  create: (unit: Unit, body: Body) => writeDeposit(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeDeposit(unit, body, await loadOrFail(unit, 'bank_deposit', id)),
  delete: async (unit: Unit, id: string) => {
    await releasePayments(unit, await loadOrFail(unit, 'bank_deposit', id));
    unit.remove('bank_deposit', id);
  },
};

async function writeTransfer(unit: Unit, body: Body, base: NativeTransfer | null): Promise<NativeTransfer> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  const fromId = get('FromAccountId', () => text(body, 'FromAccountId', true), base?.FromAccountId ?? '');
  const toId = get('ToAccountId', () => text(body, 'ToAccountId', true), base?.ToAccountId ?? '');
  const from = await account(unit, fromId, 'FromAccountId');
  const to = await account(unit, toId, 'ToAccountId');
  if (from === undefined || to === undefined) throw invalid('RequiredField', 'FromAccountId and ToAccountId are required', 'FromAccountId');
  if (from.Id === to.Id) throw invalid('BusinessRule', 'a transfer needs two different accounts', 'ToAccountId');
  for (const [acct, field] of [
    [from, 'FromAccountId'],
    [to, 'ToAccountId'],
  ] as const) {
    if (acct.Class !== 'Asset') throw invalid('BusinessRule', `${acct.Id} is not an asset account`, field);
  }
  if (from.CurrencyCode !== to.CurrencyCode) throw invalid('BusinessRule', 'both accounts of a transfer must have the same currency', 'ToAccountId');
  const amount = get('Amount', () => cents(body, 'Amount', true), base === null ? 0 : parseCents(base.Amount));
  if (amount <= 0) throw invalid('InvalidAmount', 'Amount must be positive', 'Amount');
  const transfer: NativeTransfer = base ?? {
    Id: unit.nextId('bank_transfer'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    FromAccountId: fromId,
    ToAccountId: toId,
    Amount: '0.00',
    TxnDate: '',
    CurrencyCode: from.CurrencyCode,
  };
  Object.assign(transfer, {
    FromAccountId: fromId,
    ToAccountId: toId,
    Amount: formatCents(amount),
    CurrencyCode: from.CurrencyCode,
    TxnDate: get('TxnDate', () => date(body, 'TxnDate', true), transfer.TxnDate),
  });
  const tracking = [
    ['ClassId', 'class'],
    ['DepartmentId', 'department'],
    ['LocationId', 'location'],
    ['ProjectId', 'project'],
    ['SubsidiaryId', 'subsidiary'],
  ] as const;
  for (const [field, type] of tracking) {
    const value = get(field, () => text(body, field), transfer[field]);
    await existing(unit, type, value, field);
    setOptional(transfer, field, value);
  }
  setOptional(
    transfer,
    'Memo',
    get('Memo', () => text(body, 'Memo'), transfer.Memo),
  );
  if (base === null) unit.create('bank_transfer', transfer);
  else unit.touch('bank_transfer', transfer);
  return transfer;
}

export const transferWriter = {
  create: (unit: Unit, body: Body) => writeTransfer(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeTransfer(unit, body, await loadOrFail(unit, 'bank_transfer', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOrFail(unit, 'bank_transfer', id);
    unit.remove('bank_transfer', id);
  },
};

async function journalLines(unit: Unit, body: Body): Promise<NativeJournalLine[]> {
  const raw = list(body, 'Lines', true);
  const lines: NativeJournalLine[] = [];
  let debits = 0;
  let credits = 0;
  for (const [n, line] of raw.entries()) {
    const field = `Lines[${n}]`;
    const accountId = text(line, 'AccountId', true);
    await account(unit, accountId, `${field}.AccountId`);
    const debit = cents(line, 'Debit');
    const credit = cents(line, 'Credit');
    if ((debit === undefined) === (credit === undefined)) throw invalid('InvalidField', `${field} needs exactly one of Debit or Credit`, field);
    const amount = debit ?? -(credit ?? 0);
    if ((debit ?? credit ?? 0) < 0) throw invalid('InvalidAmount', `${field}: Debit and Credit are positive amounts`, field);
    if (amount > 0) debits += amount;
    else credits -= amount;
    const out = journalLine(String(n + 1), accountId, amount, text(line, 'Description'));
    const taxCodeId = text(line, 'TaxCodeId');
    if ((await existing(unit, 'tax_rate', taxCodeId, `${field}.TaxCodeId`)) !== undefined) out.TaxCodeId = taxCodeId;
    lines.push(out);
  }
  if (lines.length < 2) throw invalid('RequiredField', 'a journal entry needs at least two lines', 'Lines');
  if (debits !== credits) {
    throw invalid(
      'JournalUnbalanced',
      `Debits (${formatCents(debits)}) and credits (${formatCents(credits)}) must be equal; the entry is out of balance by ${formatCents(Math.abs(debits - credits))}`,
      'Lines',
    );
  }
  if (debits === 0) throw invalid('InvalidAmount', 'a journal entry must move an amount', 'Lines');
  return lines;
}

async function writeJournal(unit: Unit, body: Body, base: NativeJournalEntry | null): Promise<NativeJournalEntry> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  if (base?.Status === 'Voided') throw invalid('BusinessRule', `journal entry ${base.Id} is void and cannot change`, 'Status');
  const id = base?.Id ?? unit.nextId('journal_entry');
  const entry: NativeJournalEntry = base ?? {
    Id: id,
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    DocNumber: `JE-${id.slice(3)}`,
    TxnDate: '',
    CurrencyCode: '',
    ExchangeRate: '1.000000',
    Status: 'Posted',
    Lines: [],
  };
  entry.TxnDate = get('TxnDate', () => date(body, 'TxnDate', true), entry.TxnDate);
  entry.CurrencyCode = get('CurrencyCode', () => text(body, 'CurrencyCode') ?? unit.state.palette?.currency ?? 'USD', entry.CurrencyCode);
  entry.ExchangeRate = await writtenRate(unit, body, entry, base === null);
  entry.DocNumber = get('DocNumber', () => text(body, 'DocNumber') ?? entry.DocNumber, entry.DocNumber);
  for (const field of ['Memo', 'SubsidiaryId'] as const) {
    const value = get(field, () => text(body, field), entry[field]);
    if (field === 'SubsidiaryId') await existing(unit, 'subsidiary', value, field);
    setOptional(entry, field, value);
  }
  if (base === null || Object.hasOwn(body, 'Lines')) entry.Lines = await journalLines(unit, body);
  entry.Status = oneOf(body, 'Status', ['Posted', 'Voided'] as const, entry.Status);
  if (entry.Lines.reduce((sum, line) => sum + journalLineCents(line), 0) !== 0)
    throw invalid('JournalUnbalanced', 'journal entry is out of balance', 'Lines');
  if (base === null) unit.create('journal_entry', entry);
  else unit.touch('journal_entry', entry);
  return entry;
}

export const journalWriter = {
  create: (unit: Unit, body: Body) => writeJournal(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeJournal(unit, body, await loadOrFail(unit, 'journal_entry', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOrFail(unit, 'journal_entry', id);
    await removeAttachmentsOf(unit, id);
    unit.remove('journal_entry', id);
  },
};
