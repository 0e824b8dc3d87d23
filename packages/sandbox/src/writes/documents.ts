/**
 * Writes of bills, invoices, vendor credits and purchase orders: the platform computes every total and keeps allocations
 * consistent. A purchase order posts nothing.
 */
import { settleCredit, settleDocument, totalsOf, type LineInput } from '../books.ts';
import { addDays } from '../dates.ts';
import { applyCredit, buildLines, dueCents, unallocate } from '../documents.ts';
import { ROLES } from '../generator/chart.ts';
import { parseCents } from '../money.ts';
import type { NativeBill, NativeInvoice, NativePurchaseOrder, NativeVendorCredit } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { removeAttachmentsOf } from './attachments.ts';
import { writtenRate } from './rates.ts';
import { account, cents, date, existing, lineInput, list, notFound, oneOf, setOptional, text, unique, type Body } from './validate.ts';

/** Patch semantics: a field present in the body replaces the stored one; an absent one is kept. */
export function pick<T>(body: Body, field: string, read: () => T, current: T): T {
  return Object.hasOwn(body, field) ? read() : current;
}

async function lines(unit: Unit, body: Body, itemAccount: 'IncomeAccountId' | 'ExpenseAccountId'): Promise<LineInput[]> {
  const raw = list(body, 'Lines', true);
  if (raw.length === 0) throw invalid('RequiredField', 'Lines must have at least one line', 'Lines');
  const inputs: LineInput[] = [];
  for (const [n, line] of raw.entries()) inputs.push(await lineInput(unit, line, n, 'Lines', itemAccount));
  return inputs;
}

type Payable = NativeBill | NativeInvoice;
type Side = {
  type: 'bill' | 'invoice';
  party: 'VendorId' | 'CustomerId';
  partyType: 'vendor' | 'customer';
  control: 'APAccountId' | 'ARAccountId';
  prefix: string;
};
const BILL: Side = { type: 'bill', party: 'VendorId', partyType: 'vendor', control: 'APAccountId', prefix: 'VI' };
const INVOICE: Side = { type: 'invoice', party: 'CustomerId', partyType: 'customer', control: 'ARAccountId', prefix: 'INV' };

/** Creates (base null) or updates a bill or invoice from a native payload. */
async function writePayable(side: Side, unit: Unit, body: Body, base: Payable | null): Promise<Payable> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  const record: Record<string, unknown> = base ?? { Id: unit.nextId(side.type), CreatedAt: unit.at, UpdatedAt: unit.at, LinkedTxns: [] };
  const partyId = get(side.party, () => text(body, side.party, true), String(record[side.party]));
  const party = await existing(unit, side.partyType, partyId, side.party);
  if (base !== null && party !== undefined && party.Id !== base[side.party as keyof Payable] && base.LinkedTxns.length > 0) {
    throw invalid('BusinessRule', `${side.party} cannot change while payments or credits are applied`, side.party);
  }
  const controlId = get(side.control, () => text(body, side.control) ?? (side.type === 'bill' ? ROLES.AP : ROLES.AR), String(record[side.control]));
  await account(unit, controlId, side.control, [side.type === 'bill' ? 'AccountsPayable' : 'AccountsReceivable']);
  const txnDate = get('TxnDate', () => date(body, 'TxnDate', true), String(record.TxnDate));
  const termId = get('TermId', () => text(body, 'TermId'), record.TermId as string | undefined);
  const term = await existing(unit, 'payment_term', termId, 'TermId');
  const dueDate = get('DueDate', () => date(body, 'DueDate'), record.DueDate as string | undefined) ?? addDays(txnDate, term?.DueDays ?? 30);
  if (dueDate < txnDate) throw invalid('InvalidDate', 'DueDate is before TxnDate', 'DueDate');
  const docNumber =
    get('DocNumber', () => text(body, 'DocNumber'), record.DocNumber as string | undefined) ??
    `${side.prefix}-${String(record.Id).split('-')[1] ?? ''}`;
  await unique(unit, side.type, 'DocNumber', docNumber, base?.Id ?? null);
  const subsidiaryId = get('SubsidiaryId', () => text(body, 'SubsidiaryId'), record.SubsidiaryId as string | undefined);
  await existing(unit, 'subsidiary', subsidiaryId, 'SubsidiaryId');
  const currencyCode = get('CurrencyCode', () => text(body, 'CurrencyCode') ?? unit.state.palette?.currency ?? 'USD', String(record.CurrencyCode));
  Object.assign(record, {
    DocNumber: docNumber,
    [side.party]: partyId,
    [side.control]: controlId,
    TxnDate: txnDate,
    DueDate: dueDate,
    CurrencyCode: currencyCode,
    ExchangeRate: await writtenRate(
      unit,
      body,
      { CurrencyCode: currencyCode, TxnDate: txnDate, ExchangeRate: base?.ExchangeRate ?? '' },
      base === null,
    ),
  });
  setOptional(record, 'TermId', termId);
  setOptional(record, 'SubsidiaryId', subsidiaryId);
  setOptional(
    record,
    'Memo',
    get('Memo', () => text(body, 'Memo'), record.Memo as string | undefined),
  );
  if (side.type === 'bill') {
    const poIds = get('PurchaseOrderIds', () => purchaseOrderIds(body), (record.PurchaseOrderIds as string[] | undefined) ?? []);
    for (const id of poIds) await existing(unit, 'purchase_order', id, 'PurchaseOrderIds');
    record.PurchaseOrderIds = poIds;
  }
  if (base === null || Object.hasOwn(body, 'Lines')) {
    const built = buildLines(await lines(unit, body, side.type === 'invoice' ? 'IncomeAccountId' : 'ExpenseAccountId'));
    Object.assign(record, { Lines: built, ...totalsOf(built) });
  }
  const linked = record.LinkedTxns as Payable['LinkedTxns'];
  const status = oneOf(
    body,
    'Status',
    ['Draft', 'Open', 'Void'] as const,
    base === null ? 'Open' : base.Status === 'Draft' ? 'Draft' : base.Status === 'Void' ? 'Void' : 'Open',
  );
  if (status !== 'Open' && linked.length > 0)
    throw invalid('BusinessRule', `a ${side.type} with payments or credits applied cannot become ${status}`, 'Status');
  if (base?.Status === 'Void' && status !== 'Void') throw invalid('BusinessRule', `a void ${side.type} cannot be reopened`, 'Status');
  record.Status = status;
  const doc = record as Payable;
  settleDocument(doc);
  if (parseCents(doc.AmountDue) < 0)
    throw invalid('BusinessRule', `Total ${doc.Total} is less than the payments and credits already applied`, 'Lines');
  if (base === null) unit.create(side.type, doc);
  else unit.touch(side.type, doc);
  return doc;
}

function purchaseOrderIds(body: Body): string[] {
  const value = body.PurchaseOrderIds;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw invalid('InvalidField', 'PurchaseOrderIds must be a list of ids', 'PurchaseOrderIds');
  return value;
}

async function loadPayable(side: Side, unit: Unit, id: string): Promise<Payable> {
  const doc: Payable | null = side.type === 'bill' ? await unit.get('bill', id) : await unit.get('invoice', id);
  if (doc === null) throw notFound(side.type, id);
  return doc;
}

async function deletePayable(side: Side, unit: Unit, id: string): Promise<void> {
  const doc = await loadPayable(side, unit, id);
  if (doc.LinkedTxns.length > 0) throw invalid('BusinessRule', `${side.type} ${id} has payments or credits applied; remove them first`, 'LinkedTxns');
  // A closed sales order names the invoices made from it (InvoiceIds): they stay, as the order does.
  const order = side.type === 'invoice' ? await unit.referencedBy(['sales_order'], id) : null;
  if (order !== null) throw invalid('InUse', `invoice ${id} was made from sales order ${order}; void it instead (Status: Void)`, 'Id');
  await removeAttachmentsOf(unit, id);
  unit.remove(side.type, id);
}

export const billWriter = {
  create: (unit: Unit, body: Body) => writePayable(BILL, unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writePayable(BILL, unit, body, await loadPayable(BILL, unit, id)),
  delete: (unit: Unit, id: string) => deletePayable(BILL, unit, id),
};

export const invoiceWriter = {
  create: (unit: Unit, body: Body) => writePayable(INVOICE, unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writePayable(INVOICE, unit, body, await loadPayable(INVOICE, unit, id)),
  delete: (unit: Unit, id: string) => deletePayable(INVOICE, unit, id),
};

/** Removes a credit's applications from its bills. */
async function unapply(unit: Unit, credit: NativeVendorCredit): Promise<void> {
  await unit.load(
    'bill',
    credit.LinkedTxns.map((l) => l.TxnId),
  );
  for (const link of credit.LinkedTxns) {
    const bill = unit.peek('bill', link.TxnId);
    if (bill === null) continue;
    unallocate(bill, credit.Id, unit.at);
    unit.touch('bill', bill);
  }
  credit.LinkedTxns = [];
}

async function writeCredit(unit: Unit, body: Body, base: NativeVendorCredit | null): Promise<NativeVendorCredit> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  const id = base?.Id ?? unit.nextId('bill_credit_memo');
  const vendorId = get('VendorId', () => text(body, 'VendorId', true), base?.VendorId ?? '');
  await existing(unit, 'vendor', vendorId, 'VendorId');
  const apAccountId = get('APAccountId', () => text(body, 'APAccountId') ?? ROLES.AP, base?.APAccountId ?? ROLES.AP);
  await account(unit, apAccountId, 'APAccountId', ['AccountsPayable']);
  const docNumber = get('DocNumber', () => text(body, 'DocNumber'), base?.DocNumber) ?? `VC-${id.slice(4)}`;
  await unique(unit, 'bill_credit_memo', 'DocNumber', docNumber, base?.Id ?? null);
  const credit: NativeVendorCredit = base ?? {
    Id: id,
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    DocNumber: docNumber,
    VendorId: vendorId,
    APAccountId: apAccountId,
    TxnDate: '',
    CurrencyCode: '',
    ExchangeRate: '1.000000',
    Status: 'Open',
    Lines: [],
    SubTotal: '0.00',
    TotalDiscount: '0.00',
    TotalTax: '0.00',
    Total: '0.00',
    Remaining: '0.00',
    LinkedTxns: [],
  };
  if (base !== null && (Object.hasOwn(body, 'Applications') || Object.hasOwn(body, 'Lines') || body.Status === 'Void' || vendorId !== base.VendorId))
    await unapply(unit, credit);
  Object.assign(credit, {
    DocNumber: docNumber,
    VendorId: vendorId,
    APAccountId: apAccountId,
    TxnDate: get('TxnDate', () => date(body, 'TxnDate', true), credit.TxnDate),
    CurrencyCode: get('CurrencyCode', () => text(body, 'CurrencyCode') ?? unit.state.palette?.currency ?? 'USD', credit.CurrencyCode),
  });
  credit.ExchangeRate = await writtenRate(unit, body, credit, base === null);
  setOptional(
    credit,
    'Memo',
    get('Memo', () => text(body, 'Memo'), credit.Memo),
  );
  if (base === null || Object.hasOwn(body, 'Lines')) {
    const built = buildLines(await lines(unit, body, 'ExpenseAccountId'));
    Object.assign(credit, { Lines: built, ...totalsOf(built) });
  }
  credit.Status = body.Status === 'Void' || credit.Status === 'Void' ? 'Void' : 'Open';
  settleCredit(credit);
  if (base === null) unit.create('bill_credit_memo', credit);
  else unit.touch('bill_credit_memo', credit);
  if (credit.Status !== 'Void' && (base === null || Object.hasOwn(body, 'Applications') || Object.hasOwn(body, 'Lines'))) {
    const applications = base !== null && !Object.hasOwn(body, 'Applications') ? [] : list(body, 'Applications');
    for (const [n, application] of applications.entries()) {
      const field = `Applications[${n}]`;
      const bill = await existing(unit, 'bill', text(application, 'BillId', true), `${field}.BillId`);
      const amount = cents(application, 'Amount', true);
      if (bill === undefined) continue;
      if (bill.VendorId !== credit.VendorId) throw invalid('BusinessRule', `bill ${bill.Id} belongs to another vendor`, `${field}.BillId`);
      if (bill.Status === 'Void' || bill.Status === 'Draft') throw invalid('BusinessRule', `bill ${bill.Id} is ${bill.Status}`, `${field}.BillId`);
      if (amount <= 0 || amount > dueCents(bill) || amount > parseCents(credit.Remaining)) {
        throw invalid(
          'BusinessRule',
          `cannot apply ${amount / 100}: bill ${bill.Id} has ${bill.AmountDue} due and the credit ${credit.Remaining} left`,
          `${field}.Amount`,
        );
      }
      applyCredit(credit, bill, amount, credit.TxnDate, unit.at);
      unit.touch('bill', bill);
    }
    unit.touch('bill_credit_memo', credit);
  }
  return credit;
}

async function loadCredit(unit: Unit, id: string): Promise<NativeVendorCredit> {
  const credit = await unit.get('bill_credit_memo', id);
  if (credit === null) throw notFound('bill_credit_memo', id);
  return credit;
}

export const vendorCreditWriter = {
  create: (unit: Unit, body: Body) => writeCredit(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeCredit(unit, body, await loadCredit(unit, id)),
  delete: async (unit: Unit, id: string) => {
    const credit = await loadCredit(unit, id);
    await unapply(unit, credit);
    unit.remove('bill_credit_memo', id);
  },
};

const PO_STATUSES = ['Draft', 'Open', 'Closed'] as const;

async function writePurchaseOrder(unit: Unit, body: Body, base: NativePurchaseOrder | null): Promise<NativePurchaseOrder> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  const id = base?.Id ?? unit.nextId('purchase_order');
  const vendorId = get('VendorId', () => text(body, 'VendorId', true), base?.VendorId ?? '');
  await existing(unit, 'vendor', vendorId, 'VendorId');
  // A bill raised against the order names it: the order's vendor stays the bill's.
  if (base !== null && vendorId !== base.VendorId && (await unit.referencedBy(['bill'], id)) !== null)
    throw invalid('BusinessRule', `VendorId cannot change: purchase order ${id} has bills raised against it`, 'VendorId');
  const docNumber = get('DocNumber', () => text(body, 'DocNumber'), base?.DocNumber) ?? `PO-${id.slice(3)}`;
  const txnDate = get('TxnDate', () => date(body, 'TxnDate', true), base?.TxnDate ?? '');
  const expected = get('ExpectedDate', () => date(body, 'ExpectedDate'), base?.ExpectedDate) ?? txnDate;
  if (expected < txnDate) throw invalid('InvalidDate', 'ExpectedDate is before TxnDate', 'ExpectedDate');
  const order: NativePurchaseOrder = base ?? {
    Id: id,
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    DocNumber: docNumber,
    VendorId: vendorId,
    TxnDate: txnDate,
    ExpectedDate: expected,
    Status: 'Open',
    CurrencyCode: '',
    Lines: [],
    SubTotal: '0.00',
    TotalDiscount: '0.00',
    TotalTax: '0.00',
    Total: '0.00',
  };
  Object.assign(order, {
    DocNumber: docNumber,
    VendorId: vendorId,
    TxnDate: txnDate,
    ExpectedDate: expected,
    CurrencyCode: get('CurrencyCode', () => text(body, 'CurrencyCode') ?? unit.state.palette?.currency ?? 'USD', order.CurrencyCode),
    Status: oneOf(body, 'Status', PO_STATUSES, base?.Status ?? 'Open'),
  });
  setOptional(
    order,
    'Memo',
    get('Memo', () => text(body, 'Memo'), order.Memo),
  );
  if (base === null || Object.hasOwn(body, 'Lines')) {
    const built = buildLines(await lines(unit, body, 'ExpenseAccountId'));
    Object.assign(order, { Lines: built, ...totalsOf(built) });
  }
  if (base === null) unit.create('purchase_order', order);
  else unit.touch('purchase_order', order);
  return order;
}

async function loadPurchaseOrder(unit: Unit, id: string): Promise<NativePurchaseOrder> {
  const order = await unit.get('purchase_order', id);
  if (order === null) throw notFound('purchase_order', id);
  return order;
}

export const purchaseOrderWriter = {
  create: (unit: Unit, body: Body) => writePurchaseOrder(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writePurchaseOrder(unit, body, await loadPurchaseOrder(unit, id)),
  delete: async (unit: Unit, id: string) => {
    await loadPurchaseOrder(unit, id);
    const bill = await unit.referencedBy(['bill'], id);
    if (bill !== null) throw invalid('InUse', `purchase order ${id} has bill ${bill} raised against it; close it instead (Status: Closed)`, 'Id');
    unit.remove('purchase_order', id);
  },
};
