/**
 * The simulator's answers against the documented shapes the QuickBooks stand-in is built on (test/fixtures/quickbooks,
 * recorded from Intuit's API reference): every field of a record is one the reference shows for its entity, with the
 * same JSON type, and the records the connector writes pass the stand-in's validation of them (test/standins/quickbooks/validate.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import { Company } from '../../../../../test/standins/quickbooks/company.ts';
import { ENTITIES as RECORDED, fixture, recordedRecords, type Entity } from '../../../../../test/standins/quickbooks/fixtures.ts';
import { validate } from '../../../../../test/standins/quickbooks/validate.ts';
import { SandboxPlatform } from '../../platform.ts';
import { simulatorBooks } from '../books.ts';
import type { SimulatorBooks } from '../kit.ts';
import { requestOf, responseOf } from '../wire.ts';
import { quickbooksSimulator } from './index.ts';

type Json = Record<string, unknown>;
const KEY = 'quickbooks:user_shapes_size_300';
let db: TestDatabase;
let books: SimulatorBooks;

/**
 * Fields Intuit's reference documents for the entity that the recorded samples happen not to carry (the samples are
 * single records): accepted without a type to compare.
 */
const DOCUMENTED: Readonly<Partial<Record<Entity, readonly string[]>>> = {
  Account: ['ParentRef', 'AcctNum', 'Description'],
  Vendor: ['GivenName', 'FamilyName', 'WebAddr', 'TaxIdentifier', 'TermRef'],
  Customer: ['GivenName', 'FamilyName', 'WebAddr', 'PrimaryTaxIdentifier', 'SalesTermRef', 'ParentRef', 'CompanyName', 'PrintOnCheckName'],
  Item: ['Sku', 'ExpenseAccountRef'],
  Term: ['DiscountDays', 'DiscountPercent'],
  Class: ['ParentRef'],
  Department: ['ParentRef'],
  Employee: ['PrimaryEmailAddr', 'ReleasedDate'],
  Bill: ['DocNumber', 'PrivateNote', 'DepartmentRef', 'ExchangeRate', 'TxnTaxDetail'],
  VendorCredit: ['DepartmentRef', 'ExchangeRate'],
  BillPayment: ['PrivateNote', 'ExchangeRate'],
  Invoice: ['PrivateNote', 'DepartmentRef', 'ExchangeRate', 'SalesTermRef', 'ARAccountRef'],
  CreditMemo: ['PrivateNote', 'DepartmentRef', 'ExchangeRate', 'ARAccountRef'],
  Payment: ['PrivateNote', 'ExchangeRate'],
  SalesReceipt: ['PrivateNote', 'ExchangeRate', 'PaymentRefNum', 'CustomerMemo', 'BillEmail', 'BillAddr', 'Balance', 'TotalAmt'],
  Deposit: ['DepartmentRef', 'ExchangeRate'],
  Transfer: ['ClassRef', 'DepartmentRef', 'ExchangeRate'],
  JournalEntry: ['PrivateNote', 'ExchangeRate', 'TotalAmt'],
  TaxAgency: ['TaxRegistrationNumber'],
  TaxRate: ['AgencyRef'],
};

const jsonType = (value: unknown): string => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/** Fields of `record` the documented shapes of `entity` do not have, or have with another JSON type. */
function shapeProblems(entity: Entity, record: Json): string[] {
  const types = new Map<string, Set<string>>();
  for (const recorded of recordedRecords(entity)) {
    for (const [field, value] of Object.entries(recorded)) types.set(field, (types.get(field) ?? new Set()).add(jsonType(value)));
  }
  const extra = new Set(DOCUMENTED[entity] ?? []);
  return Object.entries(record).flatMap(([field, value]) => {
    const known = types.get(field);
    if (known === undefined) return extra.has(field) ? [] : [`${entity}.${field} is not in the documented shape`];
    return known.has(jsonType(value)) ? [] : [`${entity}.${field} is ${jsonType(value)}, documented as ${[...known].join('|')}`];
  });
}

async function get(path: string): Promise<Json> {
  const realm = quickbooksSimulator.tenantId(KEY);
  const grant = { accountKey: KEY, tenantId: realm, scope: '', books, linkToken: () => Promise.resolve('test-link') };
  const url = `https://sandbox-quickbooks.api.intuit.com/v3/company/${realm}/${path}${path.includes('?') ? '&' : '?'}minorversion=75`;
  const response = responseOf(
    await quickbooksSimulator.handle(await requestOf(url, { method: 'GET', headers: { accept: 'application/json' } }), grant),
  );
  expect(response.status, path).toBe(200);
  return (await response.json()) as Json;
}

async function queried(entity: Entity): Promise<Json[]> {
  const body = await get(`query?query=${encodeURIComponent(`SELECT * FROM ${entity} STARTPOSITION 1 MAXRESULTS 1000`)}`);
  const response = body.QueryResponse as Json;
  return Array.isArray(response[entity]) ? (response[entity] as Json[]) : [];
}

beforeAll(async () => {
  db = await createTestDatabase();
  books = await simulatorBooks(new SandboxPlatform(db.pool, { tickIntervalMs: 0 }), KEY);
}, 120_000);
afterAll(async () => {
  await db.close();
});

describe('QuickBooks Online simulator answers, against the documented shapes', () => {
  it('serves every recorded entity with the documented fields and types', async () => {
    const problems = new Set<string>();
    let served = 0;
    for (const entity of RECORDED) {
      const list = await queried(entity);
      served += list.length;
      for (const record of list) for (const problem of shapeProblems(entity, record)) problems.add(problem);
    }
    expect([...problems]).toEqual([]);
    expect(served).toBeGreaterThan(200);
  });

  it('answers CompanyInfo, Preferences and the reports in their documented shapes', async () => {
    const realm = quickbooksSimulator.tenantId(KEY);
    const info = (await get(`companyinfo/${realm}`)).CompanyInfo as Json;
    const recordedInfo = fixture('companyinfo.json').CompanyInfo as Json;
    for (const field of Object.keys(info)) expect(Object.keys(recordedInfo), field).toContain(field);
    const preferences = (await get('preferences')).Preferences as Json;
    expect(Object.keys(preferences).sort()).toEqual(expect.arrayContaining(['CurrencyPrefs', 'Id', 'MetaData', 'SyncToken']));
    for (const [name, file] of [
      ['BalanceSheet', 'balancesheet.json'],
      ['ProfitAndLoss', 'profitandloss.json'],
      ['CashFlow', 'cashflow.json'],
    ] as const) {
      const answer = await get(
        `reports/${name}?start_date=2025-01-01&end_date=2025-03-31&summarize_column_by=Month${name === 'CashFlow' ? '' : '&accounting_method=Accrual'}`,
      );
      const recorded = fixture(file);
      expect(Object.keys(answer).sort()).toEqual(Object.keys(recorded).sort());
      for (const field of Object.keys(answer.Header as Json)) expect(Object.keys(recorded.Header as Json), field).toContain(field);
      const groups = (report: Json): string[] => (report.Rows as { Row: Json[] }).Row.map((row) => String(row.group));
      expect(groups(answer), name).toEqual(groups(recorded));
      // A column per month and a total, as QBO answers summarize_column_by=Month.
      expect((answer.Columns as { Column: unknown[] }).Column).toHaveLength(5);
    }
  });

  it('serves bills, journal entries and customers the stand-in would accept as written', async () => {
    const company = new Company({ realmId: quickbooksSimulator.tenantId(KEY), now: Date.now });
    for (const entity of ['Account', 'Vendor', 'Customer', 'Term', 'Department', 'Class', 'Item', 'Employee'] as const) {
      for (const record of await queried(entity)) company.replace(entity, record);
    }
    const problems: string[] = [];
    for (const entity of ['Bill', 'JournalEntry', 'Customer'] as const) {
      for (const record of await queried(entity)) {
        // A voided transaction has no lines (QBO's void), which a write could not send.
        if (typeof record.PrivateNote === 'string' && record.PrivateNote.startsWith('Voided')) continue;
        const problem = validate(company, entity, record);
        if (problem !== null) problems.push(`${entity} ${String(record.Id)}: ${problem.detail}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
