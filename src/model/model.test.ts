import { describe, it, expect } from 'vitest';
import { Value } from 'typebox/value';
import { MODEL, FILTERABLE, LINKS, collectLinks, visitLinks, type FilterKind } from './index.ts';
import { OBJECT_TYPES, UNIFIED_OBJECT_TYPES, isUnifiedObjectType } from './object-types.ts';
import { BillSchema, type Bill } from './bill.ts';
import { BillCreditMemoSchema } from './bill-credit-memo.ts';
import { BillPaymentSchema } from './bill-payment.ts';
import { JournalEntrySchema, type JournalEntry } from './journal-entry.ts';
import { BalanceSheetSchema, BALANCE_SHEET_TREE_DEPTH, type BalanceSheet, type BalanceSheetNode } from './balance-sheet.ts';
import { CURRENCY_CODES } from './shared.ts';
import { IncomeStatementSchema, type IncomeStatement, type StatementNode } from './income-statement.ts';
import { InvoicePaymentSchema, paymentWithReferenceNames } from './invoice-payment.ts';
import { allocatedAt } from './invoice-credit-memo.ts';

// --- helpers over plain JSON Schema --------------------------------------

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asJson(schema: unknown): Json {
  if (!isRecord(schema)) throw new Error('schema is not an object');
  return schema;
}

/** `X | null` → X; anything else unchanged. */
function unwrapNullable(schema: unknown): Json {
  const s = asJson(schema);
  const anyOf = s.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const rest = anyOf.filter((member) => !(isRecord(member) && member.type === 'null'));
    if (rest.length === 1) return asJson(rest[0]);
  }
  return s;
}

function isNullable(schema: unknown): boolean {
  const anyOf = asJson(schema).anyOf;
  return Array.isArray(anyOf) && anyOf.some((member) => isRecord(member) && member.type === 'null');
}

function properties(schema: unknown): Json {
  const props = asJson(schema).properties;
  return isRecord(props) ? props : {};
}

function required(schema: unknown): string[] {
  const req = asJson(schema).required;
  return Array.isArray(req) ? req.filter((r): r is string => typeof r === 'string') : [];
}

/** Schema at a link path ('line_items[].item.id'), or undefined when the path does not exist. */
function schemaAt(root: unknown, path: string): Json | undefined {
  let current: Json = asJson(root);
  for (const segment of path.split('.')) {
    const isArray = segment.endsWith('[]');
    const name = isArray ? segment.slice(0, -2) : segment;
    const next = properties(unwrapNullable(current))[name];
    if (next === undefined) return undefined;
    current = unwrapNullable(next);
    if (isArray) {
      if (current.type !== 'array') return undefined;
      current = asJson(current.items);
    }
  }
  return current;
}

/** Every schema node below `schema`, with its path, not entering free objects. */
function* walk(schema: unknown, path: string): Generator<{ path: string; schema: Json }> {
  const s = asJson(schema);
  yield { path, schema: s };
  if (Array.isArray(s.anyOf)) for (const member of s.anyOf) yield* walk(member, path);
  if (s.type === 'array') yield* walk(s.items, `${path}[]`);
  for (const [name, child] of Object.entries(properties(s))) yield* walk(child, `${path}.${name}`);
}

function kindMatches(kind: FilterKind, field: string, schema: Json): boolean {
  const s = unwrapNullable(schema);
  const plainString = s.type === 'string' && s.enum === undefined && s.format === undefined;
  switch (kind) {
    case 'date':
      return s.type === 'string' && s.format === 'date-time';
    case 'enum':
      return Array.isArray(s.enum);
    case 'id':
      return plainString && field.endsWith('_id');
    case 'string':
      return plainString;
    case 'number':
      return s.type === 'number' || s.type === 'integer';
    case 'boolean':
      return s.type === 'boolean';
    case 'array':
      return s.type === 'array';
  }
}

// --- fixtures --------------------------------------------------------------

function validBill(): Bill {
  return {
    id: 'bill_1',
    platform_id: '145',
    account_id: 'acc_ap',
    payment_terms_id: null,
    subsidiary_id: null,
    vendor_id: 'ven_1',
    due_date: '2024-03-31T00:00:00.000Z',
    issue_date: '2024-03-01T00:00:00.000Z',
    amount_due: 70,
    currency_code: 'USD',
    status: 'partially_paid',
    total_amount: 120,
    document_number: 'INV-0042',
    memo: null,
    sub_total: 100,
    tax_amount: 20,
    total_discount: null,
    currency_rate: '1.0',
    linked_purchase_orders: [{ id: 'po_1' }],
    linked_credit_memos: [],
    linked_payments: [{ id: 'bp_1', allocated_date: '2024-03-10T00:00:00.000Z', allocated_amount: 50 }],
    line_items: [
      {
        platform_id: '1',
        account_id: 'acc_exp',
        class_id: null,
        customer_id: null,
        department_id: 'dep_1',
        location_id: null,
        project_id: null,
        tax_rate_id: 'tax_1',
        description: 'Office chairs',
        discount_amount: null,
        discount_percentage: null,
        sub_total: 100,
        tax_amount: 20,
        total_amount: 120,
        item: { id: 'item_1', quantity: 2, unit_amount: 50 },
      },
    ],
    created_at: '2024-03-01T09:00:00.000Z',
    updated_at: null,
    last_synced_at: '2024-03-11T09:00:00.000Z',
    platform_url: null,
  };
}

function node(name: string, value: string, accountId: string, items: BalanceSheetNode[] = []): BalanceSheetNode {
  return { account_id: accountId, name, value, items };
}

function validBalanceSheet(): BalanceSheet {
  return {
    id: 'bs_2024_03',
    start_date: '2024-03-01T00:00:00.000Z',
    end_date: '2024-03-31T00:00:00.000Z',
    currency_code: 'USD',
    total_assets: '1500.00',
    total_equity: '1000',
    total_liabilities: '500.00',
    assets: node('Assets', '1500.00', '', [node('Current assets', '1500.00', '', [node('Checking', '1500.00', 'acc_bank')])]),
    equity: node('Equity', '1000', '', [node('Retained earnings', '1000', 'acc_re')]),
    liabilities: node('Liabilities', '500.00', '', [node('Accounts payable', '500.00', 'acc_ap')]),
    created_at: null,
    updated_at: null,
  };
}

// --- tests -----------------------------------------------------------------

describe('registry', () => {
  it('has exactly one entry per object type of object-types.ts', () => {
    expect(Object.keys(MODEL).sort()).toEqual([...UNIFIED_OBJECT_TYPES].sort());
    for (const type of UNIFIED_OBJECT_TYPES) {
      const schema = asJson(MODEL[type].schema);
      expect(schema.type, type).toBe('object');
      expect(Object.keys(properties(schema)).length, type).toBeGreaterThan(1);
    }
  });

  it('has plain schemas: no $id or $ref anywhere, objects closed except free objects', () => {
    for (const type of UNIFIED_OBJECT_TYPES) {
      const text = JSON.stringify(MODEL[type].schema);
      expect(text, type).not.toContain('"$id"');
      expect(text, type).not.toContain('"$ref"');
      for (const { path, schema } of walk(MODEL[type].schema, type)) {
        if (schema.type !== 'object') continue;
        // Free objects (platform_data, additional_fields, keyed records) have no properties; every object with
        // properties is closed, the sales receipt's additional_fields too (typed as the reference types them).
        const free = Object.keys(properties(schema)).length === 0;
        expect(schema.additionalProperties, path).toBe(free);
      }
    }
  });

  it('describes every schema and every property', () => {
    for (const type of UNIFIED_OBJECT_TYPES) {
      for (const { path, schema } of walk(MODEL[type].schema, type)) {
        if (schema.type === 'null') continue;
        if (path === type || !path.endsWith('[]')) {
          expect(typeof schema.description === 'string' && schema.description.length > 0, path).toBe(true);
        }
      }
    }
  });

  it('requires every field except platform_data, additional_fields and the spec-optional non-nullable ones', () => {
    const optional = new Set(['platform_data', 'additional_fields']);
    const alsoOptional: Partial<Record<string, string[]>> = { journal_entry: ['currency_rate'], location: ['status'] };
    for (const type of UNIFIED_OBJECT_TYPES) {
      const props = Object.keys(properties(MODEL[type].schema));
      const expected = props.filter((p) => !optional.has(p) && !(alsoOptional[type] ?? []).includes(p));
      expect(required(MODEL[type].schema).sort(), type).toEqual(expected.sort());
    }
  });
});

describe('filterable (F) fields', () => {
  it('names only top-level fields of the schema, of the declared kind', () => {
    for (const type of UNIFIED_OBJECT_TYPES) {
      const props = properties(MODEL[type].schema);
      for (const [field, kind] of Object.entries(MODEL[type].filterable)) {
        const schema = props[field];
        expect(schema, `${type}.${field}`).toBeDefined();
        expect(kindMatches(kind, field, asJson(schema)), `${type}.${field} is ${kind}`).toBe(true);
      }
    }
  });

  it('keeps the F fields of the spec', () => {
    expect(FILTERABLE.bill).toEqual({
      vendor_id: 'id',
      due_date: 'date',
      status: 'enum',
      document_number: 'string',
      created_at: 'date',
      updated_at: 'date',
      last_synced_at: 'date',
    });
    expect(Object.keys(FILTERABLE.bill_payment).sort()).toEqual(['account_id', 'reference', 'vendor_id']);
    expect(Object.keys(FILTERABLE.account).sort()).toEqual(['account_type', 'balance', 'category', 'name', 'nominal_code', 'status', 'subsidiaries']);
    expect(FILTERABLE.bank_feed_account).toEqual({ last_synced_at: 'date' });
    expect(FILTERABLE.balance_sheet).toEqual({ start_date: 'date', end_date: 'date' });
    expect(FILTERABLE.journal_entry).toEqual({});
  });
});

describe('link fields', () => {
  it('point at known object types through paths that exist in the schema', () => {
    for (const type of UNIFIED_OBJECT_TYPES) {
      for (const link of MODEL[type].links) {
        for (const target of link.targets) expect(isUnifiedObjectType(target), `${type}.${link.path} → ${target}`).toBe(true);
        const at = schemaAt(MODEL[type].schema, link.path);
        expect(at?.type, `${type}.${link.path}`).toBe('string');
        const parent = link.path.includes('.') ? link.path.slice(0, link.path.lastIndexOf('.')) : '';
        const sibling = (name: string) => (parent === '' ? name : `${parent}.${name}`);
        if (link.discriminator !== undefined) {
          expect(schemaAt(MODEL[type].schema, sibling(link.discriminator))?.type, `${type}.${link.path} discriminator`).toBe('string');
        }
        if (link.recursive !== undefined) {
          const key = link.path.slice(link.path.lastIndexOf('.') + 1);
          expect(schemaAt(MODEL[type].schema, `${sibling(link.recursive)}[].${key}`)?.type, `${type}.${link.path} recursive`).toBe('string');
        }
      }
    }
  });

  it('cover the bill links of the spec', () => {
    const byPath = new Map(LINKS.bill.map((l) => [l.path, l.targets]));
    expect(byPath.get('vendor_id')).toEqual(['vendor']);
    expect(byPath.get('account_id')).toEqual(['account']);
    expect(byPath.get('line_items[].tax_rate_id')).toEqual(['tax_rate']);
    expect(byPath.get('linked_payments[].id')).toEqual(['bill_payment']);
    expect(byPath.get('linked_credit_memos[].id')).toEqual(['bill_credit_memo']);
  });

  it('finds every linked id in an object, with concrete paths', () => {
    const found = collectLinks(MODEL.bill.links, validBill()).map(({ path, id }) => `${path}=${id}`);
    expect(found.sort()).toEqual([
      'account_id=acc_ap',
      'line_items[0].account_id=acc_exp',
      'line_items[0].department_id=dep_1',
      'line_items[0].item.id=item_1',
      'line_items[0].tax_rate_id=tax_1',
      'linked_payments[0].id=bp_1',
      'linked_purchase_orders[0].id=po_1',
      'vendor_id=ven_1',
    ]);
  });

  it('lets write-side code replace ids in place', () => {
    const bill = structuredClone(validBill());
    visitLinks(MODEL.bill.links, bill, ({ holder, key, id }) => {
      holder[key] = `platform:${id}`;
    });
    expect(bill.vendor_id).toBe('platform:ven_1');
    expect(bill.line_items[0]?.item?.id).toBe('platform:item_1');
    expect(bill.payment_terms_id).toBeNull();
  });

  it('follows balance sheet trees to every depth', () => {
    const ids = collectLinks(MODEL.balance_sheet.links, validBalanceSheet()).map(({ path, id }) => `${path}=${id}`);
    expect(ids.sort()).toEqual([
      'assets.items[0].items[0].account_id=acc_bank',
      'equity.items[0].account_id=acc_re',
      'liabilities.items[0].account_id=acc_ap',
    ]);
  });
});

describe('bill schema', () => {
  it('accepts a bill with every field of the spec', () => {
    expect(Value.Check(BillSchema, validBill())).toBe(true);
    expect(Value.Check(BillSchema, { ...validBill(), currency_rate: null, platform_data: { Id: '145' }, additional_fields: {} })).toBe(true);
  });

  it('rejects a wrong status value', () => {
    expect(Value.Check(BillSchema, { ...validBill(), status: 'overdue' })).toBe(false);
  });

  it('rejects an unknown currency code', () => {
    expect(Value.Check(BillSchema, { ...validBill(), currency_code: 'usd' })).toBe(false);
  });

  it('rejects an amount written as a string', () => {
    expect(Value.Check(BillSchema, { ...validBill(), total_amount: '120.00' })).toBe(false);
    const line = { ...validBill().line_items[0], total_amount: '120' };
    expect(Value.Check(BillSchema, { ...validBill(), line_items: [line] })).toBe(false);
  });

  it('rejects a missing field, even a nullable one', () => {
    const { memo: _memo, ...withoutMemo } = validBill();
    expect(Value.Check(BillSchema, withoutMemo)).toBe(false);
    const { last_synced_at: _synced, ...withoutSynced } = validBill();
    expect(Value.Check(BillSchema, withoutSynced)).toBe(false);
  });

  it('rejects unknown fields, a null last_synced_at and a non-ISO timestamp', () => {
    expect(Value.Check(BillSchema, { ...validBill(), vendor_name: 'Acme' })).toBe(false);
    expect(Value.Check(BillSchema, { ...validBill(), last_synced_at: null })).toBe(false);
    expect(Value.Check(BillSchema, { ...validBill(), issue_date: '03/01/2024' })).toBe(false);
  });

  it('rejects a numeric currency_rate (a string on bills)', () => {
    expect(Value.Check(BillSchema, { ...validBill(), currency_rate: 1.1 })).toBe(false);
  });
});

describe('currency_rate', () => {
  it('is a required nullable string on bills, bill credit memos and bill payments', () => {
    for (const schema of [BillSchema, BillCreditMemoSchema, BillPaymentSchema]) {
      const rate = properties(schema).currency_rate;
      expect(isNullable(rate)).toBe(true);
      expect(unwrapNullable(rate).type).toBe('string');
      expect(required(schema)).toContain('currency_rate');
    }
  });

  it('is an optional number on journal entries', () => {
    const rate = asJson(properties(JournalEntrySchema).currency_rate);
    expect(rate.type).toBe('number');
    expect(isNullable(rate)).toBe(false);
    expect(required(JournalEntrySchema)).not.toContain('currency_rate');

    const entry: JournalEntry = {
      id: 'je_1',
      platform_id: '88',
      subsidiary_id: null,
      transaction_date: '2024-03-05T00:00:00.000Z',
      currency_code: 'EUR',
      deposited: null,
      memo: 'Accrual',
      line_items: [
        { account_id: 'acc_exp', tax_rate_id: null, total_amount: 250, description: 'Rent' },
        { account_id: 'acc_accrued', tax_rate_id: null, total_amount: -250, description: null },
      ],
      created_at: null,
      updated_at: null,
      last_synced_at: '2024-03-06T00:00:00.000Z',
      platform_url: null,
    };
    expect(Value.Check(JournalEntrySchema, entry)).toBe(true);
    expect(Value.Check(JournalEntrySchema, { ...entry, currency_rate: 1.0842 })).toBe(true);
    expect(Value.Check(JournalEntrySchema, { ...entry, currency_rate: '1.0842' })).toBe(false);
    expect(Value.Check(JournalEntrySchema, { ...entry, currency_rate: null })).toBe(false);
  });
});

describe('balance sheet', () => {
  it('accepts a tree of rows with numeric text values', () => {
    expect(Value.Check(BalanceSheetSchema, validBalanceSheet())).toBe(true);
  });

  it('rejects numbers and non-numeric text as values', () => {
    const sheet = validBalanceSheet();
    expect(Value.Check(BalanceSheetSchema, { ...sheet, total_assets: 1500 })).toBe(false);
    expect(Value.Check(BalanceSheetSchema, { ...sheet, equity: node('Equity', 'n/a', '') })).toBe(false);
    const deepBad = node('Assets', '1', '', [node('A', '1', '', [node('B', 'x', 'acc_1')])]);
    expect(Value.Check(BalanceSheetSchema, { ...sheet, assets: deepBad })).toBe(false);
  });

  it('accepts trees deeper than the unrolled depth', () => {
    let deep = node('Leaf', '1', 'acc_leaf');
    for (let level = 0; level < BALANCE_SHEET_TREE_DEPTH + 3; level++) deep = node(`Level ${level}`, '1', '', [deep]);
    expect(Value.Check(BalanceSheetSchema, { ...validBalanceSheet(), assets: deep })).toBe(true);
  });
});

describe('income and cash flow statements', () => {
  const row = (name: string, value: number, accountId = '', items: StatementNode[] = []): StatementNode => ({
    account_id: accountId,
    name,
    value,
    items,
  });
  const income = (): IncomeStatement => ({
    id: 'is_2024_03',
    start_date: '2024-03-01T00:00:00.000Z',
    end_date: '2024-03-31T00:00:00.000Z',
    accounting_standard: 'accrual',
    currency_code: 'USD',
    gross_profit: 700,
    net_income: 500,
    total_cost_of_sales: 300,
    total_expenses: 200,
    total_income: 1000,
    net_operating_income: 500,
    net_profit: 500,
    net_sales: 1000,
    income: row('Income', 1000, '', [row('Sales', 1000, 'acc_sales')]),
    expenses: row('Expenses', 200, '', [row('Rent', 200, 'acc_rent')]),
    cost_of_sales: row('Cost of Sales', 300, '', [row('COGS', 300, 'acc_cogs')]),
    created_at: null,
    updated_at: null,
    last_synced_at: '2024-04-01T00:00:00.000Z',
    platform_url: null,
  });

  it("take amounts as numbers, not the reference's decimal text, at every depth", () => {
    expect(Value.Check(IncomeStatementSchema, income())).toBe(true);
    expect(Value.Check(IncomeStatementSchema, { ...income(), net_income: '500.00' })).toBe(false);
    expect(
      Value.Check(IncomeStatementSchema, {
        ...income(),
        income: { ...row('Income', 1), items: [{ account_id: '', name: 'Sales', value: '1', items: [] }] },
      }),
    ).toBe(false);
    expect(Value.Check(IncomeStatementSchema, { ...income(), accounting_standard: 'modified_cash' })).toBe(false);
    expect(Value.Check(IncomeStatementSchema, { ...income(), gross_profit: null, net_operating_income: null })).toBe(true);
  });

  it('link every row of every tree to its account, "" being none', () => {
    expect(
      collectLinks(MODEL.income_statement.links, income())
        .map(({ path, id }) => `${path}=${id}`)
        .sort(),
    ).toEqual(['cost_of_sales.items[0].account_id=acc_cogs', 'expenses.items[0].account_id=acc_rent', 'income.items[0].account_id=acc_sales']);
    const flow = {
      operating_activities: row('Operating', 1, '', [row('AR', 1, 'acc_ar')]),
      investing_activities: row('Investing', 0),
      financing_activities: row('Financing', 0, 'acc_loan'),
    };
    expect(
      collectLinks(MODEL.cash_flow_statement.links, flow)
        .map(({ id }) => id)
        .sort(),
    ).toEqual(['acc_ar', 'acc_loan']);
  });

  it("are listed under the reference's keys", () => {
    expect(OBJECT_TYPES.income_statement).toMatchObject({
      plural: 'income_statements',
      path: '/accounting/income_statements',
      entity: 'INCOME_STATEMENT',
    });
    expect(OBJECT_TYPES.cash_flow_statement).toMatchObject({
      plural: 'cash_flows',
      path: '/accounting/cash_flow_statements',
      entity: 'CASH_FLOW_STATEMENT',
    });
  });
});

describe('sales orders', () => {
  const order = {
    id: 'so_1',
    platform_id: '17',
    class_id: null,
    customer_id: 'cus_1',
    department_id: null,
    location_id: null,
    payment_terms_id: null,
    subsidiary_id: null,
    issue_date: '2025-05-01T00:00:00.000Z',
    status: 'pending',
    currency_code: 'NZD',
    currency_rate: 1,
    discount_amount: null,
    document_number: 'SO-1',
    memo: null,
    reference_number: null,
    tax_amount: 1.5,
    total_amount: 11.5,
    line_items: [
      { platform_id: null, tax_rate_id: 'tax_1', description: 'Widgets', total_amount: 11.5, item: { id: 'item_1', quantity: 2, unit_amount: 5 } },
    ],
    created_at: null,
    updated_at: null,
    last_synced_at: '2025-05-02T00:00:00.000Z',
    platform_url: null,
  };

  it("are listed under the reference's keys, with its status enum and its nullable amounts", () => {
    expect(OBJECT_TYPES.sales_order).toEqual({
      plural: 'sales_orders',
      singular: 'sales_order',
      path: '/accounting/sales_orders',
      entity: 'SALES_ORDER',
    });
    expect(Value.Check(MODEL.sales_order.schema, order)).toBe(true);
    expect(
      Value.Check(MODEL.sales_order.schema, {
        ...order,
        total_amount: null,
        currency_code: null,
        line_items: [{ ...order.line_items[0], item: null, total_amount: null }],
      }),
    ).toBe(true);
    expect(Value.Check(MODEL.sales_order.schema, { ...order, status: 'invoiced' })).toBe(false);
    expect(Value.Check(MODEL.sales_order.schema, { ...order, line_items: [{ ...order.line_items[0], account_id: 'acc_1' }] })).toBe(false);
    expect(FILTERABLE.sales_order).toEqual({ customer_id: 'id', created_at: 'date', updated_at: 'date', last_synced_at: 'date' });
  });

  it('link the customer, tracking, terms, tax rates and items', () => {
    expect(
      collectLinks(MODEL.sales_order.links, order)
        .map(({ path, id }) => `${path}=${id}`)
        .sort(),
    ).toEqual(['customer_id=cus_1', 'line_items[0].item.id=item_1', 'line_items[0].tax_rate_id=tax_1']);
  });
});

describe("receivables' reference fields", () => {
  const entry = (date: string, amount: number) => ({ id: 'i1', allocated_date: date, allocated_amount: amount });

  it("an invoice payment carries txn_date and each allocation's allocated_at and amount, the same values as ours", () => {
    const named = paymentWithReferenceNames({
      transaction_date: '2024-03-01T00:00:00.000Z',
      linked_invoices: [entry('2024-03-02T00:00:00.000Z', 12.5)],
    });
    expect(named).toEqual({
      transaction_date: '2024-03-01T00:00:00.000Z',
      txn_date: '2024-03-01T00:00:00.000Z',
      linked_invoices: [{ ...entry('2024-03-02T00:00:00.000Z', 12.5), allocated_at: '2024-03-02T00:00:00.000Z', amount: 12.5 }],
    });
    const properties = InvoicePaymentSchema.properties;
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(['txn_date', 'deposited', 'payment_method_id']));
    expect(properties.currency_rate.anyOf.map((s: { type: string }) => s.type)).toEqual(['number', 'null']);
  });

  it("an invoice credit memo's allocated_at is its latest allocation's date, null with none", () => {
    expect(allocatedAt([entry('2024-02-01T00:00:00.000Z', 1), entry('2024-05-01T00:00:00.000Z', 1), entry('2024-03-01T00:00:00.000Z', 1)])).toBe(
      '2024-05-01T00:00:00.000Z',
    );
    expect(allocatedAt([])).toBeNull();
  });
});

describe('currency codes', () => {
  it('holds the spec codes plus ETH and BTC, each once', () => {
    expect(CURRENCY_CODES).toHaveLength(182);
    expect(new Set(CURRENCY_CODES).size).toBe(CURRENCY_CODES.length);
    for (const code of ['AED', 'USD', 'EUR', 'GBP', 'JPY', 'XXX', 'ZMW', 'ETH', 'BTC']) expect(CURRENCY_CODES).toContain(code);
  });
});

describe('object-types.ts', () => {
  it('is matched one to one by the registry', () => {
    expect(Object.keys(OBJECT_TYPES).length).toBe(Object.keys(MODEL).length);
  });
});
