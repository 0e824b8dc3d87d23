/**
 * Writes of the documents settled on the spot or not posted at all: expenses (paid from a bank or card account at
 * once), sales receipts (a sale paid at once, deposited to an asset account) and sales orders (post nothing until
 * invoiced). The platform computes every total from the lines, as for bills and invoices.
 */
import { totalsOf } from '../books.ts';
import { buildLines } from '../documents.ts';
import { acc, INCOME_CODES, ROLES } from '../generator/chart.ts';
import { refundNumber } from '../generator/customer-refunds.ts';
import { parseCents } from '../money.ts';
import type { NativeCustomerRefund, NativeExpense, NativeLine, NativeSalesOrder, NativeSalesReceipt } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { removeAttachmentsOf } from './attachments.ts';
import { documentLines, pick } from './documents.ts';
import { writtenRate } from './rates.ts';
import { account, date, existing, list, loadOr404, oneOf, optionalTexts, setOptional, text, unique, type Body } from './validate.ts';

type Getter = <T>(field: string, read: () => T, current: T) => T;

/** Patch semantics over a base record; a create reads every field. */
const getterOf =
  (body: Body, isNew: boolean): Getter =>
  (field, read, current) =>
    isNew ? read() : pick(body, field, read, current);

const homeCurrency = (unit: Unit): string => unit.state.palette?.currency ?? 'USD';

/** The lines and the totals they make, when a create or the body's Lines ask for them. */
async function linesIfSent(unit: Unit, body: Body, isNew: boolean, itemAccount: 'IncomeAccountId' | 'ExpenseAccountId') {
  if (!isNew && !Object.hasOwn(body, 'Lines')) return null;
  const built = buildLines(await documentLines(unit, body, itemAccount));
  return { Lines: built, ...totalsOf(built) };
}

async function writeExpense(unit: Unit, body: Body, base: NativeExpense | null): Promise<NativeExpense> {
  const get = getterOf(body, base === null);
  const paymentAccountId = get('PaymentAccountId', () => text(body, 'PaymentAccountId', true), base?.PaymentAccountId ?? '');
  const paidFrom = await account(unit, paymentAccountId, 'PaymentAccountId', ['Bank', 'CreditCard']);
  const vendorId = get('VendorId', () => text(body, 'VendorId'), base?.VendorId);
  await existing(unit, 'vendor', vendorId, 'VendorId');
  // A card account's expense is a card payment unless the body says otherwise.
  const paymentType = oneOf(
    body,
    'PaymentType',
    ['Cash', 'Check', 'CreditCard'] as const,
    base?.PaymentType ?? (paidFrom?.Type === 'CreditCard' ? 'CreditCard' : 'Cash'),
  );
  const expense: NativeExpense = base ?? {
    Id: unit.nextId('expense'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    PaymentAccountId: paymentAccountId,
    PaymentType: paymentType,
    TxnDate: '',
    CurrencyCode: '',
    Lines: [],
    SubTotal: '0.00',
    TotalDiscount: '0.00',
    TotalTax: '0.00',
    Total: '0.00',
    Status: 'Posted',
  };
  if (expense.Status === 'Voided') throw invalid('BusinessRule', `expense ${expense.Id} is void`, 'Status');
  Object.assign(expense, {
    PaymentAccountId: paymentAccountId,
    PaymentType: paymentType,
    TxnDate: get('TxnDate', () => date(body, 'TxnDate', true), expense.TxnDate),
    CurrencyCode: get('CurrencyCode', () => text(body, 'CurrencyCode') ?? homeCurrency(unit), expense.CurrencyCode),
  });
  setOptional(expense, 'VendorId', vendorId);
  optionalTexts(expense, body, ['Reference', 'Memo'], base === null);
  const lines = await linesIfSent(unit, body, base === null, 'ExpenseAccountId');
  if (lines !== null) Object.assign(expense, lines);
  if (base === null) unit.create('expense', expense);
  else unit.touch('expense', expense);
  return expense;
}

export const expenseWriter = {
  create: (unit: Unit, body: Body) => writeExpense(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeExpense(unit, body, await loadOr404(unit, 'expense', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'expense', id);
    await removeAttachmentsOf(unit, id);
    unit.remove('expense', id);
  },
};

/** Accounts a sale may be deposited to: money in the bank, or waiting in undeposited funds. */
const DEPOSIT_TYPES = ['Bank', 'OtherCurrentAsset'] as const;
const INCOME_TYPES = ['Income', 'OtherIncome'] as const;

/** A sale's lines sell into income accounts only (an item line into its item's income account). */
async function checkIncomeLines(unit: Unit, lines: readonly NativeLine[]): Promise<void> {
  for (const [n, line] of lines.entries()) await account(unit, line.AccountId, `Lines[${n}].AccountId`, INCOME_TYPES);
}

async function writeReceipt(unit: Unit, body: Body, base: NativeSalesReceipt | null): Promise<NativeSalesReceipt> {
  const get = getterOf(body, base === null);
  const id = base?.Id ?? unit.nextId('sales_receipt');
  const customerId = get('CustomerId', () => text(body, 'CustomerId'), base?.CustomerId);
  await existing(unit, 'customer', customerId, 'CustomerId');
  const depositTo = get('DepositToAccountId', () => text(body, 'DepositToAccountId') ?? ROLES.UndepositedFunds, base?.DepositToAccountId ?? '');
  await account(unit, depositTo, 'DepositToAccountId', DEPOSIT_TYPES);
  const docNumber = get('DocNumber', () => text(body, 'DocNumber'), base?.DocNumber) ?? `SR-${String(1000 + Number(id.slice(3)))}`;
  await unique(unit, 'sales_receipt', 'DocNumber', docNumber, base?.Id ?? null);
  const receipt: NativeSalesReceipt = base ?? {
    Id: id,
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    DocNumber: docNumber,
    DepositToAccountId: depositTo,
    TxnDate: '',
    CurrencyCode: '',
    ExchangeRate: '1.000000',
    PaymentMethod: 'Cash',
    Lines: [],
    SubTotal: '0.00',
    TotalDiscount: '0.00',
    TotalTax: '0.00',
    Total: '0.00',
  };
  Object.assign(receipt, {
    DocNumber: docNumber,
    DepositToAccountId: depositTo,
    TxnDate: get('TxnDate', () => date(body, 'TxnDate', true), receipt.TxnDate),
    CurrencyCode: get('CurrencyCode', () => text(body, 'CurrencyCode') ?? homeCurrency(unit), receipt.CurrencyCode),
    PaymentMethod: oneOf(body, 'PaymentMethod', ['Cash', 'Card', 'Check'] as const, receipt.PaymentMethod),
  });
  receipt.ExchangeRate = await writtenRate(unit, body, receipt, base === null);
  setOptional(receipt, 'CustomerId', customerId);
  optionalTexts(receipt, body, ['Reference', 'Memo', 'InternalMemo'], base === null);
  const lines = await linesIfSent(unit, body, base === null, 'IncomeAccountId');
  if (lines !== null) {
    await checkIncomeLines(unit, lines.Lines);
    Object.assign(receipt, lines);
  }
  if (base === null) unit.create('sales_receipt', receipt);
  else unit.touch('sales_receipt', receipt);
  return receipt;
}

export const salesReceiptWriter = {
  create: (unit: Unit, body: Body) => writeReceipt(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeReceipt(unit, body, await loadOr404(unit, 'sales_receipt', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'sales_receipt', id);
    unit.remove('sales_receipt', id);
  },
};

/** The platform's own date of a write: a refund sent without one is made today. */
const today = (unit: Unit): string => unit.at.slice(0, 10);

/**
 * A refund pays money back out of a bank (or other current asset) account for lines that take it back out of income:
 * a sales receipt in reverse, totalled by the platform from its lines. Nothing refers to a refund, so it deletes freely.
 */
async function writeRefund(unit: Unit, body: Body, base: NativeCustomerRefund | null): Promise<NativeCustomerRefund> {
  const get = getterOf(body, base === null);
  const id = base?.Id ?? unit.nextId('customer_refund');
  const customerId = get('CustomerId', () => text(body, 'CustomerId'), base?.CustomerId);
  await existing(unit, 'customer', customerId, 'CustomerId');
  const paidFrom = get('RefundFromAccountId', () => text(body, 'RefundFromAccountId', true), base?.RefundFromAccountId ?? '');
  await account(unit, paidFrom, 'RefundFromAccountId', DEPOSIT_TYPES);
  const docNumber = get('DocNumber', () => text(body, 'DocNumber'), base?.DocNumber) ?? refundNumber(id);
  await unique(unit, 'customer_refund', 'DocNumber', docNumber, base?.Id ?? null);
  const refund: NativeCustomerRefund = base ?? {
    Id: id,
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    DocNumber: docNumber,
    RefundFromAccountId: paidFrom,
    TxnDate: '',
    CurrencyCode: '',
    ExchangeRate: '1.000000',
    PaymentMethod: 'Cash',
    Lines: [],
    SubTotal: '0.00',
    TotalDiscount: '0.00',
    TotalTax: '0.00',
    Total: '0.00',
  };
  Object.assign(refund, {
    DocNumber: docNumber,
    RefundFromAccountId: paidFrom,
    TxnDate: get('TxnDate', () => date(body, 'TxnDate') ?? today(unit), refund.TxnDate),
    CurrencyCode: get('CurrencyCode', () => text(body, 'CurrencyCode') ?? homeCurrency(unit), refund.CurrencyCode),
    PaymentMethod: oneOf(body, 'PaymentMethod', ['Cash', 'Card', 'Check'] as const, refund.PaymentMethod),
  });
  refund.ExchangeRate = await writtenRate(unit, body, refund, base === null);
  setOptional(refund, 'CustomerId', customerId);
  optionalTexts(refund, body, ['Memo'], base === null);
  const lines = await linesIfSent(unit, body, base === null, 'IncomeAccountId');
  if (lines !== null) {
    await checkIncomeLines(unit, lines.Lines);
    if (parseCents(lines.Total) <= 0)
      throw invalid('BusinessRule', 'a refund pays back more than nothing: its lines must total more than 0', 'Lines');
    Object.assign(refund, lines);
  }
  if (base === null) unit.create('customer_refund', refund);
  else unit.touch('customer_refund', refund);
  return refund;
}

export const customerRefundWriter = {
  create: (unit: Unit, body: Body) => writeRefund(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeRefund(unit, body, await loadOr404(unit, 'customer_refund', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'customer_refund', id);
    unit.remove('customer_refund', id);
  },
};

/** An order line names what is sold, not where it posts: a line without an item or account gets the sales account. */
function withSalesAccount(body: Body): Body {
  if (!Object.hasOwn(body, 'Lines')) return body;
  const lines = list(body, 'Lines').map((line) =>
    line.ItemId === undefined && line.AccountId === undefined ? { ...line, AccountId: acc(INCOME_CODES[0] ?? '4000') } : line,
  );
  return { ...body, Lines: lines };
}

async function writeOrder(unit: Unit, sent: Body, base: NativeSalesOrder | null): Promise<NativeSalesOrder> {
  const body = withSalesAccount(sent);
  const get = getterOf(body, base === null);
  if (base?.Status === 'Closed') throw invalid('BusinessRule', `sales order ${base.Id} is closed (invoiced); it cannot change`, 'Status');
  const id = base?.Id ?? unit.nextId('sales_order');
  const customerId = get('CustomerId', () => text(body, 'CustomerId', true), base?.CustomerId ?? '');
  await existing(unit, 'customer', customerId, 'CustomerId');
  const termId = get('TermId', () => text(body, 'TermId'), base?.TermId);
  await existing(unit, 'payment_term', termId, 'TermId');
  const docNumber = get('DocNumber', () => text(body, 'DocNumber'), base?.DocNumber) ?? `SO-${String(1000 + Number(id.slice(3)))}`;
  await unique(unit, 'sales_order', 'DocNumber', docNumber, base?.Id ?? null);
  const order: NativeSalesOrder = base ?? {
    Id: id,
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    DocNumber: docNumber,
    CustomerId: customerId,
    TxnDate: '',
    CurrencyCode: '',
    ExchangeRate: '1.000000',
    Status: 'Open',
    Lines: [],
    SubTotal: '0.00',
    TotalDiscount: '0.00',
    TotalTax: '0.00',
    Total: '0.00',
    InvoiceIds: [],
  };
  Object.assign(order, {
    DocNumber: docNumber,
    CustomerId: customerId,
    TxnDate: get('TxnDate', () => date(body, 'TxnDate', true), order.TxnDate),
    CurrencyCode: get('CurrencyCode', () => text(body, 'CurrencyCode') ?? homeCurrency(unit), order.CurrencyCode),
    // Closed comes with the invoices made from the order, never by a write.
    Status: oneOf(body, 'Status', ['PendingApproval', 'Open'] as const, base?.Status === 'PendingApproval' ? 'PendingApproval' : 'Open'),
  });
  order.ExchangeRate = await writtenRate(unit, body, order, base === null);
  setOptional(order, 'TermId', termId);
  optionalTexts(order, body, ['CustomerPoNumber', 'Memo'], base === null);
  const lines = await linesIfSent(unit, body, base === null, 'IncomeAccountId');
  if (lines !== null) Object.assign(order, lines);
  if (base === null) unit.create('sales_order', order);
  else unit.touch('sales_order', order);
  return order;
}

export const salesOrderWriter = {
  create: (unit: Unit, body: Body) => writeOrder(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeOrder(unit, body, await loadOr404(unit, 'sales_order', id)),
  delete: async (unit: Unit, id: string) => {
    const order = await loadOr404(unit, 'sales_order', id);
    if (order.InvoiceIds.length > 0) throw invalid('InUse', `sales order ${id} was invoiced as ${order.InvoiceIds.join(', ')}`, 'Id');
    unit.remove('sales_order', id);
  },
};
