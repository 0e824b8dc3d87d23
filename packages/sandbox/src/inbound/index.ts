/** Unified input → native payload, per writable object type. */
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import type { ConnectorContext } from '../../../../src/platforms/connector.ts';
import {
  copy,
  dateOnly,
  decimal,
  documentLines,
  enumValue,
  has,
  invalid,
  link,
  links,
  list,
  TRACKING_LINKS,
  type Input,
  type Native,
} from './common.ts';
import { orderInbound } from './orders.ts';

type Inbound = (ctx: ConnectorContext, input: Input) => Promise<Native>;

const DOC_STATUS = { draft: 'Draft', open: 'Open', void: 'Void' } as const;

async function payable(ctx: ConnectorContext, input: Input, party: 'vendor' | 'customer'): Promise<Native> {
  const out: Native = {};
  await links(ctx, input, out, [
    [`${party}_id`, party === 'vendor' ? 'VendorId' : 'CustomerId', party],
    ['account_id', party === 'vendor' ? 'APAccountId' : 'ARAccountId', 'account'],
    ['payment_terms_id', 'TermId', 'payment_term'],
    ['subsidiary_id', 'SubsidiaryId', 'subsidiary'],
  ]);
  copy(input, out, [
    ['issue_date', 'TxnDate', dateOnly],
    ['due_date', 'DueDate', dateOnly],
    ['currency_code', 'CurrencyCode'],
    ['currency_rate', 'ExchangeRate', String],
    ['document_number', 'DocNumber'],
    ['memo', 'Memo'],
  ]);
  if (has(input, 'status')) out.Status = enumValue('status', input.status, DOC_STATUS);
  if (party === 'vendor' && has(input, 'linked_purchase_orders')) {
    const ids: string[] = [];
    for (const [n, po] of list(input, 'linked_purchase_orders').entries()) {
      const id = await link(ctx, 'purchase_order', po.id, `linked_purchase_orders[${n}].id`);
      if (id !== undefined) ids.push(id);
    }
    out.PurchaseOrderIds = ids;
  }
  await documentLines(ctx, input, out);
  return out;
}

async function allocations(ctx: ConnectorContext, input: Input, field: string, type: UnifiedObjectType, idKey: string): Promise<Native[]> {
  const out: Native[] = [];
  for (const [n, entry] of list(input, field).entries()) {
    out.push({ [idKey]: await link(ctx, type, entry.id, `${field}[${n}].id`), Amount: decimal(entry.allocated_amount) });
  }
  return out;
}

async function contact(ctx: ConnectorContext, input: Input, kind: 'customer' | 'vendor'): Promise<Native> {
  const out: Native = {};
  copy(input, out, [
    [`${kind}_name`, 'DisplayName'],
    ['contact_name', 'ContactName'],
    ['email', 'Email'],
    ['phone', 'Phone'],
    ['currency_code', 'CurrencyCode'],
    ['tax_number', 'TaxNumber'],
    ['registration_number', 'CompanyNumber'],
    ['website', 'Website'],
  ]);
  await links(ctx, input, out, [
    ['payment_terms_id', 'TermId', 'payment_term'],
    ['parent_id', 'ParentId', kind],
  ]);
  if (has(input, 'status')) out.Status = enumValue('status', input.status, { active: 'Active', archived: 'Archived' });
  if (has(input, 'addresses')) {
    out.Addresses = list(input, 'addresses').map((a) => ({
      Kind: a.type === 'shipping' ? 'Shipping' : a.type === 'remittance' ? 'Remittance' : 'Billing',
      Line1: a.address1,
      Line2: a.address2 ?? undefined,
      City: a.city,
      Region: a.region,
      PostalCode: a.postal_code,
      Country: a.country,
    }));
  }
  if (has(input, 'subsidiaries')) out.SubsidiaryIds = await subsidiaryIds(ctx, list(input, 'subsidiaries'));
  return out;
}

/** Subsidiary ids in order, the one marked `primary` (vendors) first: SANDBOX keeps a contact's primary subsidiary first. */
async function subsidiaryIds(ctx: ConnectorContext, entries: Input[]): Promise<string[]> {
  const ids: string[] = [];
  let primary: number | null = null;
  for (const [n, entry] of entries.entries()) {
    const id = await link(ctx, 'subsidiary', entry.id, `subsidiaries[${n}].id`);
    if (id === undefined) continue;
    if (entry.primary === true) {
      if (primary !== null) throw invalid(`subsidiaries[${n}].primary`, `only one subsidiary can be primary; subsidiaries[${primary}] already is`);
      primary = n;
      ids.unshift(id);
    } else ids.push(id);
  }
  return ids;
}

/** A class or department: its name, parent (of the same kind) and status. */
async function trackingList(ctx: ConnectorContext, input: Input, kind: 'class' | 'department'): Promise<Native> {
  const out: Native = {};
  copy(input, out, [['name', 'Name']]);
  await links(ctx, input, out, [['parent_id', 'ParentId', kind]]);
  if (has(input, 'status')) out.Status = enumValue('status', input.status, { active: 'Active', archived: 'Archived' });
  return out;
}

const ACCOUNT_TYPES: Readonly<Record<string, string>> = {
  bank: 'Bank',
  accounts_receivable: 'AccountsReceivable',
  other_current_asset: 'OtherCurrentAsset',
  fixed_asset: 'FixedAsset',
  other_asset: 'OtherAsset',
  accounts_payable: 'AccountsPayable',
  credit_card: 'CreditCard',
  other_current_liability: 'OtherCurrentLiability',
  liability: 'OtherCurrentLiability',
  long_term_liability: 'LongTermLiability',
  equity: 'Equity',
  income: 'Income',
  other_income: 'OtherIncome',
  cost_of_goods_sold: 'CostOfGoodsSold',
  expense: 'Expense',
  other_expense: 'OtherExpense',
};

/** An order line names what is sold: an item at a quantity and price, or a described amount (the platform adds tax). */
async function salesOrderLines(ctx: ConnectorContext, input: Input, out: Native): Promise<void> {
  if (!has(input, 'line_items')) return;
  const lines: Native[] = [];
  for (const [n, line] of list(input, 'line_items').entries()) {
    const native: Native = {};
    await links(ctx, line, native, [['tax_rate_id', 'TaxCodeId', 'tax_rate']]);
    copy(line, native, [['description', 'Description']]);
    const item = line.item;
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const entry = item as Input;
      native.ItemId = await link(ctx, 'item', entry.id, `line_items[${n}].item.id`);
      native.Qty = entry.quantity ?? 1;
      // Without a unit price, one unit costs the line's amount.
      native.UnitPrice = decimal(typeof entry.unit_amount === 'number' ? entry.unit_amount : line.total_amount);
    } else {
      native.Qty = 1;
      native.UnitPrice = decimal(line.total_amount);
    }
    lines.push(native);
  }
  out.Lines = lines;
}

/** An item's sides: what it costs on bills (purchase) and sells for on invoices (sale); SANDBOX keeps one description. */
async function itemSides(ctx: ConnectorContext, input: Input, out: Native): Promise<void> {
  const sides = [
    ['bill_item', 'PurchaseCost', 'ExpenseAccountId'],
    ['invoice_item', 'SalesPrice', 'IncomeAccountId'],
  ] as const;
  for (const [field, price, account] of sides) {
    const side = input[field];
    if (typeof side !== 'object' || side === null || Array.isArray(side)) continue;
    const entry = side as Input;
    if (entry.tax_rate_id !== undefined && entry.tax_rate_id !== null)
      throw invalid(`${field}.tax_rate_id`, 'is not kept: SANDBOX items carry no tax rate');
    copy(entry, out, [
      ['unit_price', price, decimal],
      ['description', 'Description'],
    ]);
    await links(ctx, entry, out, [['account_id', account, 'account']]);
  }
}

/** A bill or invoice payment: its party, the account it is paid from or into, the documents it pays. */
function payment(side: {
  party: readonly [string, string, UnifiedObjectType];
  account: 'BankAccountId' | 'DepositToAccountId';
  linked: readonly [string, UnifiedObjectType, string, 'Bills' | 'Invoices'];
  /** Bill payments keep a document number (a check number); SANDBOX's invoice payments have none. */
  documentNumber?: boolean;
}): Inbound {
  return async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [side.party, ['account_id', side.account, 'account']]);
    copy(input, out, [
      ['transaction_date', 'TxnDate', dateOnly],
      ['currency_code', 'CurrencyCode'],
      ['currency_rate', 'ExchangeRate', String],
      ['memo', 'Memo'],
      ['reference', 'Reference'],
      ...(side.documentNumber === true ? ([['document_number', 'DocNumber']] as const) : []),
    ]);
    if (has(input, 'status')) out.Status = enumValue('status', input.status, { active: 'Active', void: 'Voided' });
    const [field, type, idKey, outKey] = side.linked;
    if (has(input, field)) out[outKey] = await allocations(ctx, input, field, type, idKey);
    return out;
  };
}

/** A vendor credit or a customer credit note: its party, the payables or receivables account, what it is applied to. */
function creditMemo(side: {
  party: readonly [string, string, UnifiedObjectType];
  ledger: 'APAccountId' | 'ARAccountId';
  linked: readonly [string, UnifiedObjectType, string];
}): Inbound {
  return async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [side.party, ['account_id', side.ledger, 'account']]);
    copy(input, out, [
      ['issue_date', 'TxnDate', dateOnly],
      ['document_number', 'DocNumber'],
      ['currency_code', 'CurrencyCode'],
      ['memo', 'Memo'],
    ]);
    if (has(input, 'status') && input.status === 'void') out.Status = 'Void';
    const [field, type, idKey] = side.linked;
    if (has(input, field)) out.Applications = await allocations(ctx, input, field, type, idKey);
    await documentLines(ctx, input, out);
    return out;
  };
}

/**
 * A refund's lines as standard lines: SANDBOX tracks classes, departments and tax per line, so the refund's own
 * class_id, department_id and tax_rate_id go to each line naming none; an item line without a unit price refunds its
 * total over its quantity.
 */
function refundLines(input: Input): Input[] {
  return list(input, 'line_items').map((line) => {
    const out: Input = { ...line };
    for (const field of ['class_id', 'department_id', 'tax_rate_id'] as const) {
      if (out[field] === undefined && input[field] !== undefined && input[field] !== null) out[field] = input[field];
    }
    const item = line.item;
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const entry = item as Input;
      if (entry.unit_amount === undefined && typeof line.total_amount === 'number') {
        const quantity = typeof entry.quantity === 'number' && entry.quantity > 0 ? entry.quantity : 1;
        out.item = { ...entry, quantity, unit_amount: Math.round((line.total_amount / quantity) * 100) / 100 };
      }
    }
    return out;
  });
}

/** A product variant as the native catalogue has it (also the body of /Products/<id>/Variants). */
export function nativeVariant(input: Input): Native {
  const out: Native = {};
  copy(input, out, [
    ['sku', 'Sku'],
    ['title', 'Title'],
    ['barcode', 'Barcode'],
    ['price', 'Price', decimal],
    ['unit_cost', 'UnitCost', decimal],
    ['inventory_quantity', 'InventoryQty'],
  ]);
  if (has(input, 'option_values')) out.Options = list(input, 'option_values').map((o) => ({ Name: o.name, Value: o.value }));
  return out;
}

function srcs(input: Input, field: string): string[] {
  return list(input, field).map((image) => (typeof image.src === 'string' ? image.src : ''));
}

export const INBOUND: Readonly<Partial<Record<UnifiedObjectType, Inbound>>> = {
  bill: (ctx, input) => payable(ctx, input, 'vendor'),

  // Nothing of a product is a link: its variants' currency is the store's.
  product: (_ctx, input) => {
    const out: Native = {};
    copy(input, out, [
      ['name', 'Name'],
      ['description', 'Description'],
      ['tags', 'Tags'],
    ]);
    if (has(input, 'status')) out.Status = enumValue('status', input.status, { active: 'Active', archived: 'Archived' });
    if (has(input, 'images')) out.Images = srcs(input, 'images');
    if (has(input, 'variants')) out.Variants = list(input, 'variants').map(nativeVariant);
    return Promise.resolve(out);
  },

  item: async (ctx, input) => {
    const out: Native = {};
    copy(input, out, [
      ['name', 'Name'],
      ['code', 'Sku'],
    ]);
    if (has(input, 'type')) out.Kind = enumValue('type', input.type, { service: 'Service', non_inventory: 'NonInventory' });
    if (has(input, 'status')) out.Status = enumValue('status', input.status, { active: 'Active', archived: 'Archived' });
    await itemSides(ctx, input, out);
    return out;
  },

  purchase_order: async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [['vendor_id', 'VendorId', 'vendor']]);
    copy(input, out, [
      ['issue_date', 'TxnDate', dateOnly],
      ['delivery_date', 'ExpectedDate', dateOnly],
      ['currency_code', 'CurrencyCode'],
      ['document_number', 'DocNumber'],
      ['memo', 'Memo'],
    ]);
    if (has(input, 'status')) out.Status = enumValue('status', input.status, { draft: 'Draft', open: 'Open', closed: 'Closed' });
    await documentLines(ctx, input, out);
    return out;
  },
  invoice: (ctx, input) => payable(ctx, input, 'customer'),
  order: orderInbound,

  expense: async (ctx, input) => {
    if (has(input, 'expense_type') && input.expense_type === 'refund') throw invalid('expense_type', 'SANDBOX records money spent only, not refunds');
    const out: Native = {};
    await links(ctx, input, out, [
      ['account_id', 'PaymentAccountId', 'account'],
      ['vendor_id', 'VendorId', 'vendor'],
    ]);
    copy(input, out, [
      ['transaction_date', 'TxnDate', dateOnly],
      ['currency_code', 'CurrencyCode'],
      ['document_number', 'Reference'],
      ['memo', 'Memo'],
    ]);
    if (has(input, 'payment_type'))
      out.PaymentType = enumValue('payment_type', input.payment_type, { cash: 'Cash', check: 'Check', credit_card: 'CreditCard' });
    await documentLines(ctx, input, out);
    return out;
  },

  sales_receipt: async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [
      ['customer_id', 'CustomerId', 'customer'],
      ['account_id', 'DepositToAccountId', 'account'],
    ]);
    copy(input, out, [
      ['issue_date', 'TxnDate', dateOnly],
      ['currency_code', 'CurrencyCode'],
      ['document_number', 'DocNumber'],
      ['memo', 'Memo'],
      ['reference', 'Reference'],
    ]);
    await documentLines(ctx, input, out);
    return out;
  },

  customer_refund: async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [
      ['customer_id', 'CustomerId', 'customer'],
      ['account_id', 'RefundFromAccountId', 'account'],
    ]);
    copy(input, out, [
      ['transaction_date', 'TxnDate', dateOnly],
      ['currency_code', 'CurrencyCode'],
      ['currency_rate', 'ExchangeRate', String],
      ['document_number', 'DocNumber'],
    ]);
    await documentLines(ctx, { ...input, line_items: refundLines(input) }, out);
    return out;
  },

  sales_order: async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [
      ['customer_id', 'CustomerId', 'customer'],
      ['payment_terms_id', 'TermId', 'payment_term'],
    ]);
    copy(input, out, [
      ['issue_date', 'TxnDate', dateOnly],
      ['currency_code', 'CurrencyCode'],
      ['currency_rate', 'ExchangeRate', String],
      ['document_number', 'DocNumber'],
      ['memo', 'Memo'],
      ['reference_number', 'CustomerPoNumber'],
    ]);
    if (has(input, 'status')) out.Status = enumValue('status', input.status, { open: 'Open', pending_approval: 'PendingApproval' });
    await salesOrderLines(ctx, input, out);
    return out;
  },

  bill_credit_memo: creditMemo({ party: ['vendor_id', 'VendorId', 'vendor'], ledger: 'APAccountId', linked: ['linked_bills', 'bill', 'BillId'] }),

  invoice_credit_memo: creditMemo({
    party: ['customer_id', 'CustomerId', 'customer'],
    ledger: 'ARAccountId',
    linked: ['linked_invoices', 'invoice', 'InvoiceId'],
  }),

  invoice_payment: payment({
    party: ['customer_id', 'CustomerId', 'customer'],
    account: 'DepositToAccountId',
    linked: ['linked_invoices', 'invoice', 'InvoiceId', 'Invoices'],
  }),

  bill_payment: payment({
    party: ['vendor_id', 'VendorId', 'vendor'],
    account: 'BankAccountId',
    linked: ['linked_bills', 'bill', 'BillId', 'Bills'],
    documentNumber: true,
  }),

  bank_deposit: async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [
      ['account_id', 'BankAccountId', 'account'],
      ['department_id', 'DepartmentId', 'department'],
      ['subsidiary_id', 'SubsidiaryId', 'subsidiary'],
    ]);
    copy(input, out, [
      ['transaction_date', 'TxnDate', dateOnly],
      ['currency_code', 'CurrencyCode'],
      ['memo', 'Memo'],
    ]);
    if (has(input, 'linked_payments')) {
      const payments: Native[] = [];
      for (const [n, p] of list(input, 'linked_payments').entries()) {
        payments.push({ PaymentId: await link(ctx, 'invoice_payment', p.id, `linked_payments[${n}].id`), Amount: decimal(p.payment_amount) });
      }
      out.Payments = payments;
    }
    if (has(input, 'line_items')) {
      const lines: Native[] = [];
      for (const line of list(input, 'line_items')) {
        const native: Native = { Amount: decimal(line.total_amount) };
        await links(ctx, line, native, [['account_id', 'AccountId', 'account'], ['vendor_id', 'VendorId', 'vendor'], ...TRACKING_LINKS]);
        copy(line, native, [['description', 'Description']]);
        lines.push(native);
      }
      out.Lines = lines;
    }
    return out;
  },

  bank_transfer: async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [
      ['credit_account_id', 'FromAccountId', 'account'],
      ['debit_account_id', 'ToAccountId', 'account'],
      ['class_id', 'ClassId', 'class'],
      ['department_id', 'DepartmentId', 'department'],
      ['location_id', 'LocationId', 'location'],
      ['project_id', 'ProjectId', 'project'],
      ['subsidiary_id', 'SubsidiaryId', 'subsidiary'],
    ]);
    copy(input, out, [
      ['transaction_date', 'TxnDate', dateOnly],
      ['currency_code', 'CurrencyCode'],
      ['total_amount', 'Amount', decimal],
      ['memo', 'Memo'],
    ]);
    return out;
  },

  journal_entry: async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [['subsidiary_id', 'SubsidiaryId', 'subsidiary']]);
    copy(input, out, [
      ['transaction_date', 'TxnDate', dateOnly],
      ['currency_code', 'CurrencyCode'],
      ['currency_rate', 'ExchangeRate', String],
      ['memo', 'Memo'],
    ]);
    if (has(input, 'line_items')) {
      const lines: Native[] = [];
      for (const line of list(input, 'line_items')) {
        const native: Native = {};
        await links(ctx, line, native, [
          ['account_id', 'AccountId', 'account'],
          ['tax_rate_id', 'TaxCodeId', 'tax_rate'],
        ]);
        copy(line, native, [['description', 'Description']]);
        const amount = line.total_amount;
        // Debit positive, credit negative, as the unified model signs them.
        if (typeof amount === 'number' && amount < 0) native.Credit = decimal(-amount);
        else native.Debit = decimal(amount);
        lines.push(native);
      }
      out.Lines = lines;
    }
    return out;
  },

  customer: (ctx, input) => contact(ctx, input, 'customer'),
  vendor: (ctx, input) => contact(ctx, input, 'vendor'),

  account: async (ctx, input) => {
    const out: Native = {};
    copy(input, out, [
      ['name', 'Name'],
      ['nominal_code', 'Code'],
      ['currency_code', 'CurrencyCode'],
    ]);
    await links(ctx, input, out, [['parent_id', 'ParentId', 'account']]);
    if (has(input, 'account_type')) out.Type = enumValue('account_type', input.account_type, ACCOUNT_TYPES);
    if (has(input, 'status')) out.Status = enumValue('status', input.status, { active: 'Active', inactive: 'Archived', pending: 'Active' });
    if (has(input, 'subsidiaries')) out.SubsidiaryIds = await subsidiaryIds(ctx, list(input, 'subsidiaries'));
    else if (has(input, 'subsidiary_id')) {
      const id = await link(ctx, 'subsidiary', input.subsidiary_id, 'subsidiary_id');
      out.SubsidiaryIds = id === undefined ? [] : [id];
    }
    return out;
  },

  class: (ctx, input) => trackingList(ctx, input, 'class'),
  department: (ctx, input) => trackingList(ctx, input, 'department'),

  payment_term: (_ctx, input) => {
    const out: Native = {};
    copy(input, out, [
      ['name', 'Name'],
      ['due_days', 'DueDays'],
      ['discount_days', 'DiscountDays'],
      ['discount_percentage', 'DiscountPct', (v) => (typeof v === 'number' ? String(v) : v)],
    ]);
    if (has(input, 'status')) out.Status = enumValue('status', input.status, { active: 'Active', archived: 'Archived' });
    return Promise.resolve(out);
  },

  tax_rate: async (ctx, input) => {
    const out: Native = {};
    copy(input, out, [
      ['name', 'Name'],
      ['code', 'Code'],
    ]);
    if (has(input, 'status')) out.Status = enumValue('status', input.status, { active: 'Active', inactive: 'Archived' });
    if (has(input, 'components')) {
      out.Components = list(input, 'components').map((c) => ({
        Name: c.name ?? undefined,
        Rate: typeof c.rate === 'number' ? String(c.rate) : c.rate,
        Compound: c.is_compound ?? false,
        Purchases: c.is_purchases_tax ?? true,
        Sales: c.is_sales_tax ?? true,
      }));
    }
    if (has(input, 'subsidiaries')) out.SubsidiaryIds = await subsidiaryIds(ctx, list(input, 'subsidiaries'));
    return out;
  },

  bank_feed_account: async (ctx, input) => {
    const out: Native = {};
    await links(ctx, input, out, [
      ['account_id', 'AccountId', 'account'],
      ['parent_bank_feed_account_id', 'ParentFeedId', 'bank_feed_account'],
    ]);
    copy(input, out, [
      ['name', 'Name'],
      ['contact_id', 'ContactId'],
      ['internal_bank_account_id', 'InstitutionAccountId'],
      ['currency_code', 'CurrencyCode'],
      ['bank_account_number', 'AccountNumber'],
      ['routing_number', 'RoutingNumber'],
      ['line_of_business', 'LineOfBusiness'],
      ['transaction_start_date', 'TransactionStartDate', dateOnly],
      ['current_balance', 'CurrentBalance', decimal],
      ['available_balance', 'AvailableBalance', decimal],
      ['credit_limit', 'CreditLimit', decimal],
      ['payment_network_ids', 'PaymentNetworks'],
      ['country', 'Country'],
    ]);
    if (has(input, 'bank_account_type'))
      out.Kind = enumValue('bank_account_type', input.bank_account_type, {
        bank: 'Bank',
        checking: 'Checking',
        savings: 'Savings',
        credit_card: 'CreditCard',
      });
    if (has(input, 'feed_status')) out.FeedStatus = enumValue('feed_status', input.feed_status, { active: 'Active', inactive: 'Inactive' });
    const extra = input.additional_fields;
    if (typeof extra === 'object' && extra !== null && (extra as Input).override_existing === true) out.Override = true;
    return out;
  },
};
