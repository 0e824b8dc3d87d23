/**
 * Cost per record of checking a mapped object against its unified schema (src/sync/mapped-check.ts), beside what
 * preparePage already spends per record on the same object (canonical JSON and its hash), for scale; and of parsing
 * a page of Xero invoices against Xero's contract (src/platforms/xero/contract.ts).
 *   node bench/mapped-check.ts [iterations]
 * Not part of `npm run bench` (no database, no service): a micro-benchmark to quote next to the code.
 */
import { canonicalJson, hashOfText } from '../src/sync/hash.ts';
import { checkMappedObject } from '../src/sync/mapped-check.ts';
import type { UnifiedObjectType } from '../src/model/object-types.ts';
import { parseList } from '../src/platforms/xero/contract.ts';

const ITERATIONS = Number(process.argv[2] ?? 200_000);
const at = '2024-01-05T00:00:00.000Z';

function line(n: number): Record<string, unknown> {
  return {
    platform_id: `L${n}`,
    account_id: `acc-${n}`,
    class_id: null,
    customer_id: null,
    department_id: null,
    location_id: null,
    project_id: null,
    tax_rate_id: 'tax-1',
    description: `Line ${n} of the bill`,
    discount_amount: null,
    discount_percentage: null,
    sub_total: 100,
    tax_amount: 10,
    total_amount: 110,
    item: { id: `item-${n}`, quantity: 2, unit_amount: 50 },
  };
}

const bill = {
  id: '5f0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d',
  platform_id: 'B1',
  account_id: 'ap',
  payment_terms_id: null,
  subsidiary_id: null,
  vendor_id: 'v-1',
  due_date: at,
  issue_date: at,
  amount_due: 330,
  currency_code: 'USD',
  status: 'open',
  total_amount: 330,
  document_number: 'INV-1',
  memo: 'Monthly supplies',
  sub_total: 300,
  tax_amount: 30,
  total_discount: null,
  currency_rate: null,
  linked_purchase_orders: [],
  linked_credit_memos: [],
  linked_payments: [],
  line_items: [line(1), line(2), line(3)],
  additional_fields: {},
  created_at: at,
  updated_at: at,
  platform_url: null,
};
const account = {
  id: '5f0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2e',
  platform_id: 'A1',
  parent_id: null,
  account_type: 'bank',
  category: 'asset',
  status: 'active',
  balance: 12.5,
  currency_code: 'USD',
  name: 'Checking',
  nominal_code: '1000',
  subsidiaries: [],
  additional_fields: {},
  created_at: at,
  updated_at: at,
  platform_url: null,
};

function perRecordMicros(work: () => void): number {
  for (let i = 0; i < 10_000; i++) work(); // warm up: compile, optimise
  const began = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) work();
  return Number(process.hrtime.bigint() - began) / 1000 / ITERATIONS;
}

const rows: [string, UnifiedObjectType, Record<string, unknown>][] = [
  ['bill, 3 lines', 'bill', bill],
  ['account', 'account', account],
];
for (const [name, type, object] of rows) {
  if (checkMappedObject(type, object).violations.length > 0) throw new Error(`the ${name} does not fit: fix the bench`);
  const check = perRecordMicros(() => {
    checkMappedObject(type, object);
  });
  const hash = perRecordMicros(() => {
    hashOfText(canonicalJson(object));
  });
  process.stdout.write(`${name}: check ${check.toFixed(2)} µs/record; canonical JSON + hash ${hash.toFixed(2)} µs/record\n`);
}

// A page of 100 Xero bills with 3 lines each, the shape the connector reads (fields it ignores included, as Xero sends).
const xeroLine = {
  Description: 'Supplies',
  Quantity: 2,
  UnitAmount: 50,
  AccountCode: '400',
  TaxType: 'INPUT',
  TaxAmount: 10,
  LineAmount: 100,
  Tracking: [],
};
const xeroPage = Array.from({ length: 100 }, (_, i) => ({
  InvoiceID: `inv-${i}`,
  Type: 'ACCPAY',
  Status: 'AUTHORISED',
  Contact: { ContactID: 'c1', Name: 'Vendor' },
  Date: '/Date(1704412800000+0000)/',
  DueDate: '/Date(1705017600000+0000)/',
  LineAmountTypes: 'Exclusive',
  LineItems: [xeroLine, xeroLine, xeroLine],
  SubTotal: 300,
  TotalTax: 30,
  Total: 330,
  AmountDue: 330,
  AmountPaid: 0,
  CurrencyCode: 'USD',
  UpdatedDateUTC: '/Date(1704412800000+0000)/',
  Payments: [],
  CreditNotes: [],
  BrandingThemeID: 'b',
}));
const parse =
  perRecordMicros(() => {
    parseList('Invoices', xeroPage, 200);
  }) / xeroPage.length;
process.stdout.write(`Xero bill with 3 lines, parsed against the contract in a page of 100: ${parse.toFixed(2)} µs/record\n`);
