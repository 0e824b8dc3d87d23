/**
 * Writes of bills, invoices, vendor credits and purchase orders: the platform computes every total and keeps allocations
 * consistent. A purchase order posts nothing.
 */
import { settleCredit, settleDocument, totalsOf, type LineInput } from '../books.ts';
import { addDays } from '../dates.ts';
import { applyCredit, buildLines, dueCents, unallocate } from '../documents.ts';
import { ROLES } from '../generator/chart.ts';
import { parseCents } from '../money.ts';
import type { NativeBill, NativeCreditNote, NativeInvoice, NativePurchaseOrder, NativeVendorCredit } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { removeAttachmentsOf } from './attachments.ts';
import { writtenRate } from './rates.ts';
import { account, cents, date, existing, lineInput, list, notFound, oneOf, setOptional, text, unique, type Body } from './validate.ts';

/** Patch semantics: a field present in the body replaces the stored one; an absent one is kept. */
export function pick<T>(body: Body, field: string, read: () => T, current: T): T {
  return Object.hasOwn(body, field) ? read() : current;
}

export async function documentLines(unit: Unit, body: Body, itemAccount: 'IncomeAccountId' | 'ExpenseAccountId'): Promise<LineInput[]> {
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
    const built = buildLines(await documentLines(unit, body, side.type === 'invoice' ? 'IncomeAccountId' : 'ExpenseAccountId'));
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

type Credit = NativeVendorCredit | NativeCreditNote;

/** A text field of a stored record read by name ('' when absent). */
export function stringAt(record: Record<string, unknown> | null, field: string): string {
  const value = record?.[field];
  return typeof value === 'string' ? value : '';
}

/** What differs between a vendor's credit (against bills) and a customer's (against invoices); the rules are the same. */
interface CreditSide {
  type: 'bill_credit_memo' | 'invoice_credit_memo';
  doc: Side;
  /** The default number prefix, and the kind of account a line's item gives (expense for purchases, income for sales). */
  prefix: string;
  itemAccount: 'IncomeAccountId' | 'ExpenseAccountId';
  /** Each application's document id field. */
  docId: 'BillId' | 'InvoiceId';
}

const VENDOR_CREDIT: CreditSide = { type: 'bill_credit_memo', doc: BILL, prefix: 'VC', itemAccount: 'ExpenseAccountId', docId: 'BillId' };
const CREDIT_NOTE: CreditSide = { type: 'invoice_credit_memo', doc: INVOICE, prefix: 'CN', itemAccount: 'IncomeAccountId', docId: 'InvoiceId' };

/** Removes a credit's applications from its documents. */
async function unapply(side: CreditSide, unit: Unit, credit: Credit): Promise<void> {
  const type = side.doc.type;
  await unit.load(
    type,
    credit.LinkedTxns.map((l) => l.TxnId),
  );
  for (const link of credit.LinkedTxns) {
    const doc = unit.peek(type, link.TxnId);
    if (doc === null) continue;
    unallocate(doc, credit.Id, unit.at);
    unit.touch(type, doc);
  }
  credit.LinkedTxns = [];
}

function newCredit(unit: Unit, side: CreditSide, id: string, docNumber: string, partyId: string, controlId: string): Credit {
  const common = {
    Id: id,
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    DocNumber: docNumber,
    TxnDate: '',
    CurrencyCode: '',
    ExchangeRate: '1.000000',
    Status: 'Open' as const,
    Lines: [],
    SubTotal: '0.00',
    TotalDiscount: '0.00',
    TotalTax: '0.00',
    Total: '0.00',
    Remaining: '0.00',
    LinkedTxns: [],
  };
  return side.type === 'bill_credit_memo'
    ? { ...common, VendorId: partyId, APAccountId: controlId }
    : { ...common, CustomerId: partyId, ARAccountId: controlId };
}

async function writeCredit(side: CreditSide, unit: Unit, body: Body, base: Credit | null): Promise<Credit> {
  const get = <T>(field: string, read: () => T, current: T): T => (base === null ? read() : pick(body, field, read, current));
  const { party, partyType, control } = side.doc;
  const fields = base as Record<string, unknown> | null;
  const defaultControl = side.doc.type === 'bill' ? ROLES.AP : ROLES.AR;
  const id = base?.Id ?? unit.nextId(side.type);
  const partyId = get(party, () => text(body, party, true), stringAt(fields, party));
  await existing(unit, partyType, partyId, party);
  const controlId = get(control, () => text(body, control) ?? defaultControl, stringAt(fields, control) || defaultControl);
  await account(unit, controlId, control, [side.doc.type === 'bill' ? 'AccountsPayable' : 'AccountsReceivable']);
  const docNumber = get('DocNumber', () => text(body, 'DocNumber'), base?.DocNumber) ?? `${side.prefix}-${id.slice(4)}`;
  await unique(unit, side.type, 'DocNumber', docNumber, base?.Id ?? null);
  const credit = base ?? newCredit(unit, side, id, docNumber, partyId, controlId);
  if (base !== null && (Object.hasOwn(body, 'Applications') || Object.hasOwn(body, 'Lines') || body.Status === 'Void' || partyId !== fields?.[party]))
    await unapply(side, unit, credit);
  Object.assign(credit, {
    DocNumber: docNumber,
    [party]: partyId,
    [control]: controlId,
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
    const built = buildLines(await documentLines(unit, body, side.itemAccount));
    Object.assign(credit, { Lines: built, ...totalsOf(built) });
  }
  credit.Status = body.Status === 'Void' || credit.Status === 'Void' ? 'Void' : 'Open';
  settleCredit(credit);
  if (base === null) unit.create(side.type, credit);
  else unit.touch(side.type, credit);
  if (credit.Status !== 'Void' && (base === null || Object.hasOwn(body, 'Applications') || Object.hasOwn(body, 'Lines'))) {
    const applications = base !== null && !Object.hasOwn(body, 'Applications') ? [] : list(body, 'Applications');
    for (const [n, application] of applications.entries()) await applyOne(side, unit, credit, application, `Applications[${n}]`);
    unit.touch(side.type, credit);
  }
  return credit;
}

/** One application of the credit to a document of the same party that is open and has at least the amount due. */
async function applyOne(side: CreditSide, unit: Unit, credit: Credit, application: Body, field: string): Promise<void> {
  const { type, party, partyType } = side.doc;
  const doc = await existing(unit, type, text(application, side.docId, true), `${field}.${side.docId}`);
  const amount = cents(application, 'Amount', true);
  if (doc === undefined) return;
  if ((doc as Record<string, unknown>)[party] !== (credit as Record<string, unknown>)[party])
    throw invalid('BusinessRule', `${type} ${doc.Id} belongs to another ${partyType}`, `${field}.${side.docId}`);
  if (doc.Status === 'Void' || doc.Status === 'Draft') throw invalid('BusinessRule', `${type} ${doc.Id} is ${doc.Status}`, `${field}.${side.docId}`);
  if (amount <= 0 || amount > dueCents(doc) || amount > parseCents(credit.Remaining)) {
    throw invalid(
      'BusinessRule',
      `cannot apply ${amount / 100}: ${type} ${doc.Id} has ${doc.AmountDue} due and the credit ${credit.Remaining} left`,
      `${field}.Amount`,
    );
  }
  applyCredit(credit, doc, amount, credit.TxnDate, unit.at);
  unit.touch(type, doc);
}

async function loadCredit(side: CreditSide, unit: Unit, id: string): Promise<Credit> {
  const credit = side.type === 'bill_credit_memo' ? await unit.get('bill_credit_memo', id) : await unit.get('invoice_credit_memo', id);
  if (credit === null) throw notFound(side.type, id);
  return credit;
}

function creditWriter(side: CreditSide) {
  return {
    create: (unit: Unit, body: Body) => writeCredit(side, unit, body, null),
    update: async (unit: Unit, id: string, body: Body) => writeCredit(side, unit, body, await loadCredit(side, unit, id)),
    delete: async (unit: Unit, id: string) => {
      const credit = await loadCredit(side, unit, id);
      await unapply(side, unit, credit);
      unit.remove(side.type, id);
    },
  };
}

export const vendorCreditWriter = creditWriter(VENDOR_CREDIT);
export const creditNoteWriter = creditWriter(CREDIT_NOTE);

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
    const built = buildLines(await documentLines(unit, body, 'ExpenseAccountId'));
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
