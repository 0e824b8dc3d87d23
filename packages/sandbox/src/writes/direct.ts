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

/** What a sales receipt and a customer refund share: a sale paid on the spot, and its reverse. */
type CashSale = NativeSalesReceipt | NativeCustomerRefund;

/** How the two differ: where the money goes in or comes out, what the platform fills in, and what it checks. */
interface CashSaleKind<T extends CashSale> {
  type: 'sales_receipt' | 'customer_refund';
  /** The money account's field. */
  accountField: 'DepositToAccountId' | 'RefundFromAccountId';
  /** The money account when the body names none; undefined: the body must name one. */
  defaultAccount?: string;
  /** The date when the body gives none; undefined: the body must give one. */
  defaultDate?: (unit: Unit) => string;
  number: (id: string) => string;
  texts: readonly string[];
  /** Checks the totals the platform computed from the lines. */
  checkTotal?: (total: string) => void;
  accountOf: (record: T) => string;
  /** A new record of the shared fields, paid to or from the account. */
  make: (shared: Omit<NativeSalesReceipt, 'DepositToAccountId'>, account: string) => T;
  setAccount: (record: T, account: string) => void;
}

async function writeCashSale<T extends CashSale>(kind: CashSaleKind<T>, unit: Unit, body: Body, base: T | null): Promise<T> {
  const get = getterOf(body, base === null);
  const id = base?.Id ?? unit.nextId(kind.type);
  const customerId = get('CustomerId', () => text(body, 'CustomerId'), base?.CustomerId);
  await existing(unit, 'customer', customerId, 'CustomerId');
  const field = kind.accountField;
  const { defaultAccount } = kind;
  const moneyAccount = get(
    field,
    () => (defaultAccount === undefined ? text(body, field, true) : (text(body, field) ?? defaultAccount)),
    base === null ? '' : kind.accountOf(base),
  );
  await account(unit, moneyAccount, field, DEPOSIT_TYPES);
  const docNumber = get('DocNumber', () => text(body, 'DocNumber'), base?.DocNumber) ?? kind.number(id);
  await unique(unit, kind.type, 'DocNumber', docNumber, base?.Id ?? null);
  const record =
    base ??
    kind.make(
      {
        Id: id,
        CreatedAt: unit.at,
        UpdatedAt: unit.at,
        DocNumber: docNumber,
        TxnDate: '',
        CurrencyCode: '',
        ExchangeRate: '1.000000',
        PaymentMethod: 'Cash',
        Lines: [],
        SubTotal: '0.00',
        TotalDiscount: '0.00',
        TotalTax: '0.00',
        Total: '0.00',
      },
      moneyAccount,
    );
  const { defaultDate } = kind;
  kind.setAccount(record, moneyAccount);
  Object.assign(record, {
    DocNumber: docNumber,
    TxnDate: get(
      'TxnDate',
      () => (defaultDate === undefined ? date(body, 'TxnDate', true) : (date(body, 'TxnDate') ?? defaultDate(unit))),
      record.TxnDate,
    ),
    CurrencyCode: get('CurrencyCode', () => text(body, 'CurrencyCode') ?? homeCurrency(unit), record.CurrencyCode),
    PaymentMethod: oneOf(body, 'PaymentMethod', ['Cash', 'Card', 'Check'] as const, record.PaymentMethod),
  });
  record.ExchangeRate = await writtenRate(unit, body, record, base === null);
  setOptional(record, 'CustomerId', customerId);
  optionalTexts(record, body, kind.texts, base === null);
  const lines = await linesIfSent(unit, body, base === null, 'IncomeAccountId');
  if (lines !== null) {
    await checkIncomeLines(unit, lines.Lines);
    kind.checkTotal?.(lines.Total);
    Object.assign(record, lines);
  }
  if (base === null) unit.create(kind.type, record);
  else unit.touch(kind.type, record);
  return record;
}

const SALES_RECEIPT: CashSaleKind<NativeSalesReceipt> = {
  type: 'sales_receipt',
  accountField: 'DepositToAccountId',
  defaultAccount: ROLES.UndepositedFunds,
  number: (id) => `SR-${String(1000 + Number(id.slice(3)))}`,
  texts: ['Reference', 'Memo', 'InternalMemo'],
  accountOf: (receipt) => receipt.DepositToAccountId,
  make: (shared, account) => ({ ...shared, DepositToAccountId: account }),
  setAccount: (receipt, account) => {
    receipt.DepositToAccountId = account;
  },
};

export const salesReceiptWriter = {
  create: (unit: Unit, body: Body) => writeCashSale(SALES_RECEIPT, unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeCashSale(SALES_RECEIPT, unit, body, await loadOr404(unit, 'sales_receipt', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'sales_receipt', id);
    unit.remove('sales_receipt', id);
  },
};

/**
 * A refund pays money back out of a bank (or other current asset) account for lines that take it back out of income:
 * a sales receipt in reverse, totalled by the platform from its lines, made today unless dated. Nothing refers to a
 * refund, so it deletes freely.
 */
const CUSTOMER_REFUND: CashSaleKind<NativeCustomerRefund> = {
  type: 'customer_refund',
  accountField: 'RefundFromAccountId',
  defaultDate: (unit) => unit.at.slice(0, 10),
  number: refundNumber,
  texts: ['Memo'],
  checkTotal: (total) => {
    if (parseCents(total) <= 0) throw invalid('BusinessRule', 'a refund pays back more than nothing: its lines must total more than 0', 'Lines');
  },
  accountOf: (refund) => refund.RefundFromAccountId,
  make: (shared, account) => ({ ...shared, RefundFromAccountId: account }),
  setAccount: (refund, account) => {
    refund.RefundFromAccountId = account;
  },
};

export const customerRefundWriter = {
  create: (unit: Unit, body: Body) => writeCashSale(CUSTOMER_REFUND, unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeCashSale(CUSTOMER_REFUND, unit, body, await loadOr404(unit, 'customer_refund', id)),
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
