/**
 * The QUICKBOOKS connector in the real service (real PostgreSQL, the sync
 * runner, the write executor and its workers, the token manager) against the
 * QuickBooks Online stand-in (test/standins/quickbooks): the OAuth exchange,
 * an initial sync of every object with its values checked against the
 * stand-in's records (1,013 bills: two query pages), incremental syncs by
 * ChangeDataCapture and, past its 30 days, by LastUpdatedTime, writes through
 * the API with SyncToken handling and request ids, token expiry and refresh,
 * throttling and 5xx retries, a revoked grant, twenty jobs racing to
 * refresh one expired token, and attachment files served through their signed
 * file_url. Each part uses a company (realm) of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, startTestApp, json, errorBody, type TestApp } from '../../../test/support/app.ts';
import { expectSynced, oauthConnection, storedTokens, syncConnection } from '../../../test/support/oauth-connection.ts';
import { eventsOf } from '../../../test/support/sandbox-connection.ts';
import {
  customerRefundAnswers,
  invoiceWriteAnswers,
  jobIdOf,
  orderWriteAnswers,
  productWriteAnswers,
  sender,
  type Json,
} from '../../../test/support/writes.ts';
import { multipart } from '../../../test/support/multipart.ts';
import { startQuickBooksStandIn, type QuickBooksStandIn } from '../../../test/standins/quickbooks/index.ts';
import type { Entity } from '../../../test/standins/quickbooks/fixtures.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import { serviceId } from '../../store/ids.ts';
import { startWriteWorkers } from '../../writes/worker.ts';
import { connectorContext } from '../context.ts';
import { createPlatformHttp } from '../http.ts';
import { jobTokens } from '../tokens.ts';
import { qboTime } from './client.ts';
import { quickbooksConnector } from './index.ts';
import { CURSOR_OVERLAP_MS } from './read.ts';
import { setEnv } from '../../../test/support/env.ts';
import { linkProblems } from '../../../test/support/links.ts';

const APP = { clientId: 'ABqbo-client-id', clientSecret: 'qbo-client-secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' };
const GENERATED_BILLS = 1010;

let t: TestApp;
let qbo: QuickBooksStandIn;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  qbo = await startQuickBooksStandIn({ generatedBills: GENERATED_BILLS });
  qbo.registerClient(APP);
  restoreEnv = setEnv({
    QUICKBOOKS_API_URL: qbo.url,
    QUICKBOOKS_TOKEN_URL: `${qbo.url}/oauth2/v1/tokens/bearer`,
    QUICKBOOKS_AUTHORIZE_URL: `${qbo.url}/connect/oauth2`,
  });
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  await startWriteWorkers(t.boss, t.services, { concurrency: 2 });
}, 120_000);

afterAll(async () => {
  await t.close();
  await qbo.close();
  restoreEnv();
});

interface Linked {
  connection: ConnectionRecord;
  token: string;
  realmId: string;
}

/** A linked QUICKBOOKS connection to a company of the stand-in, tokens as the consent flow would leave them. */
async function link(realmId: string, expiresInSeconds?: number): Promise<Linked> {
  const tokens = qbo.issueTokens({ clientId: APP.clientId, realmId, ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }) });
  const { connection, token } = await oauthConnection(t, {
    platform: 'QUICKBOOKS',
    app: APP,
    tokens,
    identity: { storeUniqueId: realmId, storeName: qbo.company(realmId).name },
  });
  return { connection, token, realmId };
}

interface StoredRow {
  id: string;
  platform_id: string;
  data: Json;
  raw: Json;
  deleted_at: Date | null;
  last_synced_at: Date;
}

async function stored(connectionId: string, type: UnifiedObjectType, live = true): Promise<StoredRow[]> {
  const result = await t.db.pool.query<StoredRow>(
    `SELECT id, platform_id, data, raw, deleted_at, last_synced_at FROM records WHERE connection_id = $1 AND object_type = $2 ${live ? 'AND deleted_at IS NULL' : ''} ORDER BY platform_id`,
    [connectionId, type],
  );
  return result.rows;
}

async function storedOne(connectionId: string, type: UnifiedObjectType, platformId: string): Promise<StoredRow> {
  const row = (await stored(connectionId, type, false)).find((r) => r.platform_id === platformId);
  if (row === undefined) throw new Error(`no stored ${type} ${platformId}`);
  return row;
}

const ref = (c: Linked, type: UnifiedObjectType, platformId: string): string => serviceId(c.connection.id, type, platformId);

/** What each declared object is read from in the stand-in (the attachment count excludes note-only attachables). */
const SOURCES: [UnifiedObjectType, Entity][] = [
  ['account', 'Account'],
  ['vendor', 'Vendor'],
  ['customer', 'Customer'],
  ['bill', 'Bill'],
  ['bill_payment', 'BillPayment'],
  ['bill_credit_memo', 'VendorCredit'],
  ['expense', 'Purchase'],
  ['bank_deposit', 'Deposit'],
  ['bank_transfer', 'Transfer'],
  ['journal_entry', 'JournalEntry'],
  ['tax_rate', 'TaxRate'],
  ['tax_agency', 'TaxAgency'],
  ['department', 'Department'],
  ['class', 'Class'],
  ['attachment', 'Attachable'],
  ['item', 'Item'],
  ['payment_term', 'Term'],
  ['invoice', 'Invoice'],
  ['invoice_payment', 'Payment'],
  ['invoice_credit_memo', 'CreditMemo'],
  ['employee', 'Employee'],
  ['sales_receipt', 'SalesReceipt'],
  ['payment_method', 'PaymentMethod'],
];

function expectNoViolations(): void {
  expect(qbo.violations).toEqual([]);
}

describe('QuickBooks Online OAuth', () => {
  it('sends the end user to the consent page, exchanges the code for tokens of the chosen realm, and identifies the company', async () => {
    const auth = quickbooksConnector.auth;
    if (auth.type !== 'oauth2') throw new Error('QUICKBOOKS must use OAuth');
    const consent = new URL(auth.authorizeUrl(APP, 'state-123', null));
    expect(Object.fromEntries(consent.searchParams)).toEqual({
      client_id: APP.clientId,
      response_type: 'code',
      scope: 'com.intuit.quickbooks.accounting',
      redirect_uri: APP.redirectUri,
      state: 'state-123',
    });
    const page = await fetch(consent);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Larry&#39;s Bakery');
    expect(html).toMatch(/id="allow"/);
    const decide = (decision: string) =>
      fetch(`${qbo.url}/connect/oauth2`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: APP.clientId,
          redirect_uri: APP.redirectUri,
          state: 'state-123',
          scope: 'com.intuit.quickbooks.accounting',
          decision,
        }),
      });
    const denied = new URL((await decide('deny')).headers.get('location') ?? '');
    expect(Object.fromEntries(denied.searchParams)).toEqual({ error: 'access_denied', state: 'state-123' });
    const allowed = new URL((await decide('allow')).headers.get('location') ?? '');
    expect(allowed.searchParams.get('state')).toBe('state-123');
    expect(allowed.searchParams.get('realmId')).toBe(qbo.realmId);

    const ctx = { http: createPlatformHttp(), signal: new AbortController().signal, environment: 'sandbox' as const };
    const before = qbo.tokenCalls;
    const tokens = await auth.exchangeCode(ctx, APP, allowed.searchParams.get('code') ?? '', { realmId: allowed.searchParams.get('realmId') ?? '' });
    expect(qbo.tokenCalls - before).toBe(1);
    expect(tokens.tenantId).toBe(qbo.realmId);
    expect(Date.parse(tokens.expiresAt ?? '') - Date.now()).toBeGreaterThan(3500_000);
    // A code works once.
    await expect(auth.exchangeCode(ctx, APP, allowed.searchParams.get('code') ?? '', { realmId: qbo.realmId })).rejects.toMatchObject({
      kind: 'bad_request',
      httpStatus: 400,
    });
    const identity = await quickbooksConnector.identify(
      connectorContext({ connector: quickbooksConnector, connectionId: 'probe', credentials: {}, tokens, environment: 'sandbox', db: t.db.pool }),
    );
    expect(identity).toEqual({ storeUniqueId: qbo.realmId, storeName: "Larry's Bakery" });
    expectNoViolations();
  });
});

describe('QuickBooks Online sync', () => {
  let c: Linked;

  it("stores every declared object on an initial sync, mapped from the stand-in's records", async () => {
    c = await link(qbo.realmId);
    await expectSynced(t, c.connection.id, 'initial');
    const company = qbo.company();
    for (const [type, entity] of SOURCES) {
      const expected = company
        .list(entity)
        .filter((r) => entity !== 'Attachable' || typeof r.FileName === 'string')
        .map((r) => String(r.Id))
        .sort();
      expect(
        (await stored(c.connection.id, type)).map((r) => r.platform_id),
        type,
      ).toEqual(expected);
    }
    // 1,013 bills take two pages of QBO's maximum 1,000.
    expect(
      qbo.log.filter((r) => r.query.includes('SELECT * FROM Bill ')).map((r) => /STARTPOSITION (\d+) MAXRESULTS (\d+)/.exec(r.query)?.slice(1)),
    ).toEqual([
      ['1', '1000'],
      ['991', '1000'],
    ]);

    // Every bill against the stand-in's: links as service ids, amounts, status, lines.
    const bills = new Map((await stored(c.connection.id, 'bill')).map((r) => [r.platform_id, r]));
    for (const bill of company.list('Bill')) {
      const row = bills.get(String(bill.Id));
      const vendor = (bill.VendorRef as { value: string }).value;
      const status = bill.Balance === 0 ? 'paid' : bill.Balance === bill.TotalAmt ? 'open' : 'partially_paid';
      expect(row?.data, `bill ${String(bill.Id)}`).toMatchObject({
        vendor_id: ref(c, 'vendor', vendor),
        total_amount: bill.TotalAmt,
        amount_due: bill.Balance,
        status,
        issue_date: `${String(bill.TxnDate)}T00:00:00.000Z`,
      });
      expect((row?.data.line_items as Json[]).length).toBe((bill.Line as Json[]).length);
      expect(row?.raw).toEqual(bill);
    }
    expect(bills.get('126')?.data).toMatchObject({
      status: 'partially_paid',
      amount_due: 100,
      total_amount: 250,
      document_number: 'BB-7731',
      account_id: ref(c, 'account', '33'),
      line_items: [
        {
          account_id: ref(c, 'account', '7'),
          class_id: ref(c, 'class', '5000000000000007280'),
          customer_id: ref(c, 'customer', '3'),
          department_id: ref(c, 'department', '1'),
          total_amount: 175,
        },
        { account_id: null, item: { id: ref(c, 'item', '11'), quantity: 3, unit_amount: 25 }, total_amount: 75 },
      ],
    });
    // Links resolve to stored records.
    expect((await storedOne(c.connection.id, 'bill_payment', '130')).data).toMatchObject({
      account_id: ref(c, 'account', '41'),
      linked_bills: [{ id: bills.get('126')?.id, allocated_amount: 150 }],
      status: 'active',
    });
    expect((await storedOne(c.connection.id, 'bill_payment', '131')).data).toMatchObject({ status: 'void', total_amount: 0 });
    expect((await storedOne(c.connection.id, 'invoice', '237')).data).toMatchObject({ status: 'void' });
    expect((await storedOne(c.connection.id, 'bank_deposit', '148')).data).toMatchObject({
      linked_payments: [{ id: (await storedOne(c.connection.id, 'invoice_payment', '120')).id, payment_amount: 868.15, type: 'invoice_payment' }],
    });
    expect((await storedOne(c.connection.id, 'journal_entry', '227')).data.line_items).toEqual([
      { account_id: ref(c, 'account', '34'), tax_rate_id: null, total_amount: 25.54, description: 'nov portion of rider insurance' },
      { account_id: ref(c, 'account', '44'), tax_rate_id: null, total_amount: -25.54, description: 'nov portion of rider insurance' },
    ]);
    // Purchases are expenses: a card purchase of a vendor with an account line and an item line, and a card credit as a refund.
    const expense = (await storedOne(c.connection.id, 'expense', '253')).data;
    expect(expense).toMatchObject({
      account_id: ref(c, 'account', '41'),
      vendor_id: ref(c, 'vendor', '46'),
      payment_type: 'credit_card',
      expense_type: 'expense',
      transaction_date: '2015-08-03T00:00:00.000Z',
      document_number: 'CC-4412',
      memo: 'Lumber for the Finch deck',
      sub_total: 103.55,
      tax_amount: 10,
      total_amount: 113.55,
      line_items: [
        { account_id: ref(c, 'account', '64'), customer_id: ref(c, 'customer', '1'), total_amount: 110 },
        { account_id: null, item: { id: ref(c, 'item', '3'), quantity: 1, unit_amount: 3.55 }, total_amount: 3.55 },
      ],
    });
    expect((await storedOne(c.connection.id, 'expense', '254')).data).toMatchObject({ expense_type: 'refund', total_amount: 25 });
    const byId = json(await sender(t, c.token)('GET', `/accounting/expenses/${ref(c, 'expense', '253')}`)).expense as Json;
    expect(byId).toMatchObject({ id: ref(c, 'expense', '253'), ...expense });
    expect((await storedOne(c.connection.id, 'attachment', '5000000000000010341')).data).toMatchObject({
      attached_to_id: bills.get('25')?.id,
      attached_to_type: 'bill',
      file_name: 'receipt_nov15.jpg',
    });
    expect((await storedOne(c.connection.id, 'company_info', '1')).data).toMatchObject({
      name: "Larry's Bakery",
      currency_code: 'USD',
      fiscal_year_start_month: 1,
    });

    // Monthly balance sheets: the last 24 months, the current one last, accounts linked.
    const sheets = await stored(c.connection.id, 'balance_sheet');
    const month = new Date().toISOString().slice(0, 7);
    expect(sheets).toHaveLength(24);
    expect(sheets.at(-1)?.platform_id).toBe(month);
    expect(sheets.at(-1)?.data).toMatchObject({
      start_date: `${month}-01T00:00:00.000Z`,
      currency_code: 'USD',
      total_assets: '24742.44',
      total_liabilities: '31548.42',
      total_equity: '-6805.98',
    });
    const checking = (sheets.at(-1)?.data.assets as { items: { items: { items: { account_id: string; value: string }[] }[] }[] }).items[0]?.items[0]
      ?.items[0];
    expect(checking).toEqual({ account_id: (await storedOne(c.connection.id, 'account', '35')).id, name: 'Checking', value: '1350.55', items: [] });

    // Income statements and cash flows from the ProfitAndLoss and CashFlow reports, month by month as well.
    const incomes = await stored(c.connection.id, 'income_statement');
    expect(incomes).toHaveLength(24);
    expect(incomes.at(-1)?.data).toMatchObject({
      start_date: `${month}-01T00:00:00.000Z`,
      accounting_standard: 'accrual',
      total_income: 1415.55,
      net_income: 534.67,
    });
    const sales = (incomes.at(-1)?.data.income as { items: { account_id: string }[] }).items[0];
    expect(sales?.account_id).toBe((await storedOne(c.connection.id, 'account', '79')).id);
    const flows = await stored(c.connection.id, 'cash_flow_statement');
    expect(flows).toHaveLength(24);
    expect(flows.at(-1)?.data).toMatchObject({ starting_balance: -3183.48, ending_balance: 1350.55, total_operating: 2366.53 });
    const reports = qbo.log.filter((r) => r.path.includes('/reports/')).map((r) => r.path.split('/').at(-1));
    expect(new Set(reports)).toEqual(new Set(['BalanceSheet', 'ProfitAndLoss', 'CashFlow']));
    const status = json(
      await t.app.inject({ method: 'GET', url: `/versioned/connections/status?access_token=${c.token}`, headers: clientHeaders(t.org) }),
    ).status as { historical_sync_status: Json };
    expect(status.historical_sync_status).toMatchObject({
      synced_balance_sheets_count: 24,
      synced_income_statements_count: 24,
      synced_cash_flows_count: 24,
    });
    // No sales order entity in QuickBooks Online (docs/reference.md): not read, not counted, the endpoints say so.
    expect(Object.keys(status.historical_sync_status.total as Json)).not.toContain('SALES_ORDER');
    for (const path of ['/accounting/sales_orders', `/accounting/sales_orders/${(await storedOne(c.connection.id, 'account', '35')).id}`]) {
      const orders = await sender(t, c.token)('GET', path);
      expect([orders.statusCode, errorBody(orders).error_code], path).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    }
    expect(qbo.log.some((r) => /salesorder|estimate/i.test(`${r.path} ${r.query}`))).toBe(false);
    // Nor tax areas: QBO's sales tax has agencies, rates and codes, no place (docs/reference.md).
    expect(Object.keys(status.historical_sync_status.total as Json)).not.toContain('TAX_AREA');
    for (const path of ['/accounting/tax_areas', `/accounting/tax_areas/${(await storedOne(c.connection.id, 'account', '35')).id}`]) {
      const areas = await sender(t, c.token)('GET', path);
      expect([areas.statusCode, errorBody(areas).error_code], path).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    }
    // Nor customer refunds yet: RefundReceipt is not read (docs/reference.md).
    for (const [route, status, code] of await customerRefundAnswers(sender(t, c.token)))
      expect([status, code], route).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    // Nor customer groups: QuickBooks Online keeps no groups of a shop's customers (docs/reference.md).
    for (const path of ['/commerce/customer_groups', '/commerce/customer_groups/anything']) {
      const groups = await sender(t, c.token)('GET', path);
      expect([groups.statusCode, errorBody(groups).error_code], path).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    }
    // Invoice payments are written (their made-up ids answer otherwise); credit memos and applications not yet (docs/writes.md).
    for (const [route, status, code] of await invoiceWriteAnswers(sender(t, c.token))) {
      if (route.includes('/invoice_payments')) expect(code, route).not.toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
      else expect([status, code], route).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    }
    // Nor order writes (create, update, fulfil): SANDBOX takes them; this platform's connector does not write orders.
    for (const [route, status, code] of await orderWriteAnswers(sender(t, c.token)))
      expect([status, code], route).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    // Nor commerce product and variant writes (docs/reference.md, Product writes).
    for (const [route, status, code] of await productWriteAnswers(sender(t, c.token)))
      expect([status, code], route).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    // Nor the commerce objects: QuickBooks Online is no store and no payment gateway.
    for (const path of ['/payouts', '/payouts/anything', '/store']) {
      const commerce = await sender(t, c.token)('GET', path);
      expect([commerce.statusCode, errorBody(commerce).error_code], path).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    }
    expectNoViolations();
  }, 60_000);

  it('stores links as service ids that their endpoints serve (test/support/links.ts)', async () => {
    // Sales receipt 11 is Intuit's sample, whose customer 6 and item 4 the fixtures leave out
    // (test/fixtures/quickbooks/README.md): the company gets them, as Intuit's sample company has them, and a sync reads them.
    qbo.company().replace('Customer', {
      Id: '6',
      DisplayName: 'Dylan Sollfrank',
      GivenName: 'Dylan',
      FamilyName: 'Sollfrank',
      FullyQualifiedName: 'Dylan Sollfrank',
      PrintOnCheckName: 'Dylan Sollfrank',
      Active: true,
      Taxable: false,
      Job: false,
      BillWithParent: false,
      Balance: 0,
      BalanceWithJobs: 0,
      PreferredDeliveryMethod: 'Print',
    });
    qbo.company().replace('Item', {
      Id: '4',
      Name: 'Design',
      Description: 'Custom Design',
      Active: true,
      FullyQualifiedName: 'Design',
      Taxable: false,
      UnitPrice: 75,
      Type: 'Service',
      IncomeAccountRef: { value: '79', name: 'Sales of Product Income' },
      PurchaseCost: 0,
      TrackQtyOnHand: false,
    });
    await expectSynced(t, c.connection.id, 'incremental');
    expect(await linkProblems(t, c.connection.id)).toEqual([]);
  }, 300_000);

  it('reads changes by ChangeDataCapture: the changed bill updated, the deleted one gone, the voided payment void, nothing else touched', async () => {
    const untouched = await storedOne(c.connection.id, 'bill', '126');
    const before = (await eventsOf(t, c.connection.id)).length;
    const log = qbo.log.length;
    qbo.company().edit('Bill', '108', (bill) => {
      bill.PrivateNote = 'Team lunch (corrected)';
      bill.Line = [{ DetailType: 'AccountBasedExpenseLineDetail', Amount: 240, AccountBasedExpenseLineDetail: { AccountRef: { value: '7' } } }];
    });
    qbo.company().remove('Bill', '5001');
    qbo.company().void('BillPayment', '130');
    await expectSynced(t, c.connection.id, 'incremental');

    const requests = qbo.log.slice(log);
    expect(
      requests
        .filter((r) => r.path.endsWith('/cdc'))
        .map((r) => /entities=(\w+)/.exec(r.query)?.[1])
        .sort(),
    ).toEqual(
      SOURCES.filter(([type]) => type !== 'tax_rate' && type !== 'tax_agency')
        .map(([, entity]) => entity)
        .sort(),
    );
    // Tax rates and agencies are outside CDC: read whole; bills are not queried again.
    expect(
      requests
        .filter((r) => r.query.includes('SELECT * FROM'))
        .map((r) => /FROM (\w+)/.exec(r.query)?.[1])
        .sort(),
    ).toEqual(['TaxAgency', 'TaxRate']);

    const changes = (await eventsOf(t, c.connection.id))
      .slice(before)
      .map((e) => [e.code, ((e.payload.bill ?? e.payload.bill_payment) as Json | undefined)?.platform_id]);
    expect(changes).toEqual([
      ['BILL_UPDATED', '108'],
      ['BILL_DELETED', '5001'],
      ['BILL_PAYMENT_UPDATED', '130'],
    ]);
    expect((await storedOne(c.connection.id, 'bill_payment', '130')).data).toMatchObject({
      status: 'void',
      total_amount: 0,
      linked_bills: [],
      memo: 'Voided - Acct. 1JK90',
    });
    expect((await storedOne(c.connection.id, 'bill', '108')).data).toMatchObject({
      memo: 'Team lunch (corrected)',
      total_amount: 240,
      amount_due: 240,
      status: 'open',
    });
    expect((await storedOne(c.connection.id, 'bill', '5001')).deleted_at).not.toBeNull();
    expect(await storedOne(c.connection.id, 'bill', '126')).toEqual(untouched);
    expectNoViolations();
  });

  it('reads employees, and a hire and a release by ChangeDataCapture as EMPLOYEE_CREATED and EMPLOYEE_UPDATED', async () => {
    expect((await storedOne(c.connection.id, 'employee', '54')).data).toMatchObject({
      first_name: 'John',
      last_name: 'Johnson',
      employee_number: 'E-101',
      hire_date: '2014-09-01T00:00:00.000Z',
      status: 'active',
      termination_date: null,
      department_id: null,
      manager_id: null,
      salary: null,
      custom_fields: {},
    });
    expect((await storedOne(c.connection.id, 'employee', '72')).data).toMatchObject({
      status: 'terminated',
      termination_date: '2015-06-30T00:00:00.000Z',
    });
    const before = (await eventsOf(t, c.connection.id)).length;
    qbo.company().edit('Employee', '55', (employee) => {
      employee.Active = false;
      employee.ReleasedDate = '2015-08-31';
    });
    const hired = qbo.company().insert('Employee', {
      GivenName: 'Dana',
      FamilyName: 'Reyes',
      DisplayName: 'Dana Reyes',
      Active: true,
      HiredDate: '2015-09-01',
      EmployeeNumber: 'E-103',
    });
    await expectSynced(t, c.connection.id, 'incremental');
    const changes = (await eventsOf(t, c.connection.id)).slice(before).map((e) => [e.code, (e.payload.employee as Json | undefined)?.platform_id]);
    expect(changes.sort()).toEqual([
      ['EMPLOYEE_CREATED', String(hired.Id)],
      ['EMPLOYEE_UPDATED', '55'],
    ]);
    expect((await storedOne(c.connection.id, 'employee', '55')).data).toMatchObject({
      status: 'terminated',
      termination_date: '2015-08-31T00:00:00.000Z',
      hire_date: '2014-09-15T00:00:00.000Z',
    });
    expect((await storedOne(c.connection.id, 'employee', String(hired.Id))).data).toMatchObject({
      first_name: 'Dana',
      last_name: 'Reyes',
      status: 'active',
      employee_number: 'E-103',
    });
    expectNoViolations();
  });

  it('reads sales receipts, and a new one, a changed one and a deleted one by ChangeDataCapture as SALES_RECEIPT_* webhooks', async () => {
    expect((await storedOne(c.connection.id, 'sales_receipt', '12')).data).toMatchObject({
      customer_id: ref(c, 'customer', '3'),
      account_id: ref(c, 'account', '4'),
      total_amount: 526.24,
      amount_due: 0,
      discount_amount: 20,
      document_number: '1069',
      memo: 'Thank you for your business',
      additional_fields: { internal_memo: 'Paid at the yard', tax_amount: 38.98 },
      line_items: [
        { item: { id: ref(c, 'item', '3'), quantity: 2, unit_amount: 173.63 } },
        { item: { id: ref(c, 'item', '11'), quantity: 1, unit_amount: 160 } },
      ],
    });
    const before = (await eventsOf(t, c.connection.id)).length;
    qbo.company().edit('SalesReceipt', '12', (receipt) => {
      receipt.LinkedTxn = [{ TxnId: '148', TxnType: 'Deposit' }];
    });
    const sold = qbo.company().insert('SalesReceipt', {
      CustomerRef: { value: '1', name: "Amy's Bird Sanctuary" },
      DepositToAccountRef: { value: '35', name: 'Checking' },
      DocNumber: '1071',
      TotalAmt: 160,
      Balance: 0,
      Line: [
        { Amount: 160, DetailType: 'SalesItemLineDetail', SalesItemLineDetail: { ItemRef: { value: '11', name: 'Pump' }, Qty: 1, UnitPrice: 160 } },
      ],
    });
    qbo.company().remove('SalesReceipt', '11');
    await expectSynced(t, c.connection.id, 'incremental');
    const changes = (await eventsOf(t, c.connection.id))
      .slice(before)
      .filter((e) => e.code.startsWith('SALES_RECEIPT_'))
      .map((e) => [e.code, (e.payload.sales_receipt as Json | undefined)?.platform_id ?? e.payload.id]);
    expect(changes.map(([code]) => code).sort()).toEqual(['SALES_RECEIPT_CREATED', 'SALES_RECEIPT_DELETED', 'SALES_RECEIPT_UPDATED']);
    expect(changes).toContainEqual(['SALES_RECEIPT_CREATED', String(sold.Id)]);
    expect(changes).toContainEqual(['SALES_RECEIPT_UPDATED', '12']);
    expect((await storedOne(c.connection.id, 'sales_receipt', '12')).data).toMatchObject({
      linked_transactions: [{ id: (await storedOne(c.connection.id, 'bank_deposit', '148')).id, type: 'bank_deposit' }],
    });
    expect((await storedOne(c.connection.id, 'sales_receipt', '11')).deleted_at).not.toBeNull();
    expect((await storedOne(c.connection.id, 'sales_receipt', String(sold.Id))).data).toMatchObject({
      customer_id: ref(c, 'customer', '1'),
      total_amount: 160,
      document_number: '1071',
    });
    expectNoViolations();
  });

  it("serves payment methods in the reference's shape, links a payment's method, and reads a renamed one by ChangeDataCapture", async () => {
    const get = sender(t, c.token);
    const listed = await get('GET', '/accounting/payment_methods?limit=50');
    expect(listed.statusCode).toBe(200);
    const methods = json(listed).payment_methods as Json[];
    expect(methods.map((m) => m.name).sort()).toEqual(
      qbo
        .company()
        .list('PaymentMethod')
        .map((m) => String(m.Name))
        .sort(),
    );
    const check = methods.find((m) => m.platform_id === '2');
    expect(check).toEqual({
      id: ref(c, 'payment_method', '2'),
      platform_id: '2',
      name: 'Check',
      created_at: '2014-09-11T21:42:05.000Z',
      updated_at: '2014-09-11T21:42:05.000Z',
      last_synced_at: expect.any(String) as unknown,
    });
    // Payment 120 was paid by check: its payment_method_id is the method the endpoint serves.
    const payment = json(await get('GET', `/accounting/invoice_payments/${(await storedOne(c.connection.id, 'invoice_payment', '120')).id}`));
    expect((payment.invoice_payment as Json).payment_method_id).toBe(check?.id);
    const fetched = await get('GET', `/accounting/payment_methods/${String(check?.id)}?expand=platform_data`);
    expect(fetched.statusCode).toBe(200);
    expect((json(fetched).payment_method as Json).platform_data as Json).toMatchObject({ Id: '2', Type: 'NON_CREDIT_CARD', Active: true });
    const byName = json(await get('GET', `/accounting/payment_methods?filter=${encodeURIComponent('name = "Visa"')}`)).payment_methods as Json[];
    expect(byName.map((m) => m.platform_id)).toEqual(['7']);

    const before = (await eventsOf(t, c.connection.id)).length;
    qbo.company().edit('PaymentMethod', '4', (method) => {
      method.Name = 'Diners Club International';
    });
    await expectSynced(t, c.connection.id, 'incremental');
    const changes = (await eventsOf(t, c.connection.id))
      .slice(before)
      .filter((e) => e.code.startsWith('PAYMENT_METHOD_'))
      .map((e) => [e.code, (e.payload.payment_method as Json | undefined)?.platform_id]);
    expect(changes).toEqual([['PAYMENT_METHOD_UPDATED', '4']]);
    expect((await storedOne(c.connection.id, 'payment_method', '4')).data).toMatchObject({ name: 'Diners Club International' });
    expect(qbo.log.some((r) => r.path.endsWith('/cdc') && r.query.includes('PaymentMethod'))).toBe(true);
    expectNoViolations();
  });

  it("reads changes by LastUpdatedTime when the cursor is older than CDC's 30 days", async () => {
    const old = new Date(Date.now() - 40 * 24 * 60 * 60_000).toISOString();
    await t.db.pool.query(`UPDATE sync_objects SET since_cursor = $2 WHERE connection_id = $1 AND object_type = 'bill'`, [c.connection.id, old]);
    qbo.company().edit('Bill', '126', (bill) => {
      bill.DocNumber = 'BB-7731-R';
    });
    const log = qbo.log.length;
    await expectSynced(t, c.connection.id, 'incremental');
    const billReads = qbo.log.slice(log).filter((r) => /FROM Bill |entities=Bill&/.test(r.query));
    const since = qboTime(Date.parse(old) - CURSOR_OVERLAP_MS);
    expect(billReads.map((r) => r.query.replace(/&minorversion=\d+/, ''))).toEqual([
      `query=SELECT * FROM Bill WHERE MetaData.LastUpdatedTime > '${since}' ORDERBY Id STARTPOSITION 1 MAXRESULTS 1000`,
    ]);
    expect((await storedOne(c.connection.id, 'bill', '126')).data.document_number).toBe('BB-7731-R');
    expectNoViolations();
  });
});

describe('QuickBooks Online currencies and exchange rates', () => {
  const realmQueries = (realmId: string, entity: string) =>
    qbo.log.filter((r) => r.path.includes(`/${realmId}/query`) && r.query.includes(`FROM ${entity}`));

  it('gives a company without multicurrency its home currency only, no rates, and queries neither list', async () => {
    qbo.addCompany({ realmId: '9130350000000021', name: 'One Currency Bakery' });
    const c = await link('9130350000000021');
    await expectSynced(t, c.connection.id, 'initial');
    expect((await stored(c.connection.id, 'currency')).map((r) => [r.platform_id, r.data.currency_code, r.data.currency_name])).toEqual([
      ['USD', 'USD', null],
    ]);
    expect((await stored(c.connection.id, 'currency'))[0]?.raw).toMatchObject({
      CurrencyPrefs: { HomeCurrency: { value: 'USD' }, MultiCurrencyEnabled: false },
    });
    expect(await stored(c.connection.id, 'exchange_rate')).toEqual([]);
    expect([...realmQueries('9130350000000021', 'CompanyCurrency'), ...realmQueries('9130350000000021', 'ExchangeRate')]).toEqual([]);
    expectNoViolations();
  });

  it("reads a multicurrency company's active currencies and its rates, and a new and a revised rate, a removed currency, on the next sync", async () => {
    const company = qbo.addCompany({ realmId: '9130350000000022', name: 'Many Currencies Bakery', multiCurrency: true });
    const c = await link('9130350000000022');
    await expectSynced(t, c.connection.id, 'initial');
    // CAD is inactive: off the list.
    expect((await stored(c.connection.id, 'currency')).map((r) => [r.platform_id, r.data.currency_name])).toEqual([
      ['EUR', 'Euro'],
      ['INR', 'Indian Rupee'],
      ['JPY', 'Japanese Yen'],
      ['USD', null],
    ]);
    const rates = await stored(c.connection.id, 'exchange_rate');
    expect(rates.map((r) => r.platform_id)).toEqual(['EUR-USD-2015-06-05', 'EUR-USD-2015-07-07', 'INR-USD-2015-05-15', 'JPY-USD-2015-06-19']);
    expect(rates[1]?.data).toMatchObject({
      source_currency_code: 'EUR',
      target_currency_code: 'USD',
      rate: 1.1034,
      as_of_date: '2015-07-07T00:00:00.000Z',
      created_at: null,
      updated_at: '2015-07-07T19:40:24.000Z',
    });
    expect(rates[1]?.raw).toEqual(company.list('ExchangeRate').find((r) => r.AsOfDate === '2015-07-07'));
    // The entity has no Id to order by.
    expect(realmQueries('9130350000000022', 'ExchangeRate').map((r) => r.query.replace(/&minorversion=\d+/, ''))).toEqual([
      'query=SELECT * FROM ExchangeRate STARTPOSITION 1 MAXRESULTS 1000',
    ]);

    const list = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/exchange_rates?access_token=${c.token}&filter=${encodeURIComponent('source_currency_code = "EUR"')}&sort=as_of_date%20ASC`,
      headers: clientHeaders(t.org),
    });
    expect(list.statusCode, list.body).toBe(200);
    expect((json(list).exchange_rates as Json[]).map((r) => r.rate)).toEqual([1.1178, 1.1034]);

    const before = (await eventsOf(t, c.connection.id)).length;
    company.setExchangeRate({ SourceCurrencyCode: 'EUR', AsOfDate: '2015-07-08', Rate: 1.0991 });
    company.setExchangeRate({ SourceCurrencyCode: 'INR', AsOfDate: '2015-05-15', Rate: 0.0157 });
    company.edit('CompanyCurrency', '5', (currency) => {
      currency.Active = false;
    });
    await expectSynced(t, c.connection.id, 'incremental');
    const events = (await eventsOf(t, c.connection.id))
      .slice(before)
      .map((e) => [e.code, String(((e.payload.exchange_rate ?? e.payload.currency) as Json | undefined)?.id)]);
    const idOf = async (type: UnifiedObjectType, platformId: string) => (await storedOne(c.connection.id, type, platformId)).id;
    expect(events.sort()).toEqual(
      [
        ['CURRENCY_DELETED', await idOf('currency', 'JPY')],
        ['EXCHANGE_RATE_CREATED', await idOf('exchange_rate', 'EUR-USD-2015-07-08')],
        ['EXCHANGE_RATE_UPDATED', await idOf('exchange_rate', 'INR-USD-2015-05-15')],
      ].sort(),
    );
    expect((await storedOne(c.connection.id, 'exchange_rate', 'INR-USD-2015-05-15')).data).toMatchObject({ rate: 0.0157 });
    expectNoViolations();
  });
});

describe('QuickBooks Online writes', () => {
  let c: Linked;
  let send: ReturnType<typeof sender>;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    qbo.addCompany({ realmId: '9130350000000001', name: 'Writes Company' });
    c = await link('9130350000000001');
    await expectSynced(t, c.connection.id, 'initial');
    send = sender(t, c.token);
  }, 60_000);

  const company = () => qbo.company('9130350000000001');
  /** The bill the create test makes, updated and deleted by the next tests. */
  let billId = '';

  it("creates a bill with account and item lines, once, under the job's request id", async () => {
    // The first answer is lost after QBO stored the bill: the retry with the same requestid gets the first outcome.
    qbo.failNext({ status: 503, count: 1, match: '/9130350000000001/bill?', applied: true });
    const repeats = qbo.repeatedRequestIds;
    const response = await send('POST', '/accounting/bills', {
      bill: {
        vendor_id: ref(c, 'vendor', '46'),
        issue_date: today,
        due_date: '2030-01-31',
        memo: 'Decking for Amy',
        document_number: 'NL-9001',
        line_items: [
          {
            account_id: ref(c, 'account', '64'),
            total_amount: 120.5,
            description: 'Boards',
            customer_id: ref(c, 'customer', '1'),
            department_id: ref(c, 'department', '1'),
          },
          {
            account_id: ref(c, 'account', '80'),
            total_amount: 24,
            item: { id: ref(c, 'item', '11'), quantity: 2, unit_amount: 12 },
            department_id: ref(c, 'department', '1'),
          },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(qbo.repeatedRequestIds - repeats).toBe(1);
    const created = company()
      .list('Bill')
      .filter((b) => b.DocNumber === 'NL-9001');
    expect(created).toHaveLength(1);
    const [bill] = created;
    billId = String(bill?.Id);
    expect(bill).toMatchObject({
      VendorRef: { value: '46' },
      TxnDate: today,
      DueDate: '2030-01-31',
      PrivateNote: 'Decking for Amy',
      DepartmentRef: { value: '1' },
      TotalAmt: 144.5,
      Balance: 144.5,
      SyncToken: '0',
      Line: [
        {
          DetailType: 'AccountBasedExpenseLineDetail',
          Amount: 120.5,
          Description: 'Boards',
          AccountBasedExpenseLineDetail: { AccountRef: { value: '64' }, CustomerRef: { value: '1' } },
        },
        { DetailType: 'ItemBasedExpenseLineDetail', Amount: 24, ItemBasedExpenseLineDetail: { ItemRef: { value: '11' }, Qty: 2, UnitPrice: 12 } },
      ],
    });
    expect(json(response).bill).toMatchObject({
      platform_id: bill?.Id,
      vendor_id: ref(c, 'vendor', '46'),
      status: 'open',
      total_amount: 144.5,
      amount_due: 144.5,
      memo: 'Decking for Amy',
      line_items: [
        { account_id: ref(c, 'account', '64'), total_amount: 120.5, department_id: ref(c, 'department', '1') },
        { item: { id: ref(c, 'item', '11'), quantity: 2, unit_amount: 12 } },
      ],
    });
    expect(qbo.log.filter((r) => r.method === 'POST' && r.path.endsWith('/bill')).every((r) => /requestid=[\w-]{36}/.test(r.query))).toBe(true);
    expectNoViolations();
  });

  it('updates a bill with its current SyncToken, and again after a concurrent change made it stale', async () => {
    const id = ref(c, 'bill', billId);
    const patched = await send('PATCH', `/accounting/bills/${id}`, {
      bill: { memo: 'Patched', line_items: [{ account_id: ref(c, 'account', '7'), total_amount: 99 }] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(company().find('Bill', billId)).toMatchObject({
      SyncToken: '1',
      PrivateNote: 'Patched',
      TotalAmt: 99,
      VendorRef: { value: '46' },
      DocNumber: 'NL-9001',
    });
    expect(json(patched).bill).toMatchObject({
      memo: 'Patched',
      total_amount: 99,
      vendor_id: ref(c, 'vendor', '46'),
      line_items: [{ account_id: ref(c, 'account', '7'), total_amount: 99 }],
    });

    // Someone edits the bill in QuickBooks between the connector's read and its write.
    qbo.editAfterNextRead(
      'Bill',
      billId,
      (b) => {
        b.DocNumber = 'EDITED-IN-QBO';
      },
      '9130350000000001',
    );
    const log = qbo.log.length;
    const again = await send('PATCH', `/accounting/bills/${id}`, { bill: { memo: 'After the conflict' } });
    expect(again.statusCode, again.body).toBe(200);
    const calls = qbo.log
      .slice(log)
      .filter((r) => r.path.includes(`/bill`))
      .map((r) => `${r.method} ${r.status}`);
    expect(calls).toEqual(['GET 200', 'POST 400', 'GET 200', 'POST 200']);
    expect(company().find('Bill', billId)).toMatchObject({
      SyncToken: '3',
      PrivateNote: 'After the conflict',
      DocNumber: 'EDITED-IN-QBO',
      TotalAmt: 99,
    });
    expect(json(again).bill).toMatchObject({ memo: 'After the conflict', document_number: 'EDITED-IN-QBO' });
    expectNoViolations();
  });

  it('deletes a bill with its SyncToken', async () => {
    const response = await send('DELETE', `/accounting/bills/${ref(c, 'bill', billId)}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toEqual({ code: 'deleted', success: true });
    expect(company().find('Bill', billId)).toBeNull();
    expect((await storedOne(c.connection.id, 'bill', billId)).deleted_at).not.toBeNull();
    expectNoViolations();
  });

  it('creates, updates and deletes a journal entry with debit and credit lines', async () => {
    const response = await send('POST', '/accounting/journal_entries', {
      journal_entry: {
        transaction_date: today,
        memo: 'Accrue rent',
        currency_code: 'USD',
        line_items: [
          { account_id: ref(c, 'account', '7'), total_amount: 50, description: 'Rent' },
          { account_id: ref(c, 'account', '35'), total_amount: -50, description: 'Rent' },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).journal_entry as Json;
    const native = company().find('JournalEntry', String(created.platform_id));
    expect(native).toMatchObject({
      PrivateNote: 'Accrue rent',
      TxnDate: today,
      CurrencyRef: { value: 'USD' },
      TotalAmt: 50,
      Line: [
        { DetailType: 'JournalEntryLineDetail', Amount: 50, JournalEntryLineDetail: { PostingType: 'Debit', AccountRef: { value: '7' } } },
        { DetailType: 'JournalEntryLineDetail', Amount: 50, JournalEntryLineDetail: { PostingType: 'Credit', AccountRef: { value: '35' } } },
      ],
    });
    expect(created.line_items).toEqual([
      { account_id: ref(c, 'account', '7'), tax_rate_id: null, total_amount: 50, description: 'Rent' },
      { account_id: ref(c, 'account', '35'), tax_rate_id: null, total_amount: -50, description: 'Rent' },
    ]);
    const patched = await send('PATCH', `/accounting/journal_entries/${String(created.id)}`, { journal_entry: { memo: 'Accrue rent (July)' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(company().find('JournalEntry', String(created.platform_id))).toMatchObject({
      PrivateNote: 'Accrue rent (July)',
      SyncToken: '1',
      TotalAmt: 50,
    });
    const deleted = await send('DELETE', `/accounting/journal_entries/${String(created.id)}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(company().find('JournalEntry', String(created.platform_id))).toBeNull();
    expectNoViolations();
  });

  it('creates a sales receipt of item lines into Undeposited Funds; sales orders are not written here', async () => {
    const response = await send('POST', '/accounting/sales_receipts', {
      sales_receipt: {
        customer_id: ref(c, 'customer', '1'),
        issue_date: today,
        document_number: 'SR-77',
        reference: 'CHK 4411',
        memo: 'Thanks for your business',
        line_items: [
          { total_amount: 30, description: 'Two pumps', item: { id: ref(c, 'item', '11'), quantity: 2, unit_amount: 15 } },
          { total_amount: 12.5, item: { id: ref(c, 'item', '11') } },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).sales_receipt as Json;
    expect(company().find('SalesReceipt', String(created.platform_id))).toMatchObject({
      CustomerRef: { value: '1' },
      DocNumber: 'SR-77',
      PaymentRefNum: 'CHK 4411',
      CustomerMemo: { value: 'Thanks for your business' },
      TotalAmt: 42.5,
      Line: [
        {
          DetailType: 'SalesItemLineDetail',
          Amount: 30,
          Description: 'Two pumps',
          SalesItemLineDetail: { ItemRef: { value: '11' }, Qty: 2, UnitPrice: 15 },
        },
        { DetailType: 'SalesItemLineDetail', Amount: 12.5, SalesItemLineDetail: { ItemRef: { value: '11' }, Qty: 1 } },
      ],
    });
    expect(created).toMatchObject({
      customer_id: ref(c, 'customer', '1'),
      account_id: ref(c, 'account', '4'),
      document_number: 'SR-77',
      reference: 'CHK 4411',
      total_amount: 42.5,
      amount_due: 0,
      line_items: [{ account_id: ref(c, 'account', '79'), total_amount: 30 }, { total_amount: 12.5 }],
    });
    expect(json(await send('GET', `/accounting/sales_receipts/${String(created.id)}`)).sales_receipt).toEqual(created);

    // QBO sells items: a line of an account only is refused (400 naming the field), and QBO is not called.
    const accountOnly = await send('POST', '/accounting/sales_receipts', {
      sales_receipt: { issue_date: today, line_items: [{ account_id: ref(c, 'account', '79'), total_amount: 5 }] },
    });
    expect([accountOnly.statusCode, errorBody(accountOnly).error_metadata?.field]).toEqual([400, 'line_items[0].item']);
    expect(
      company()
        .list('SalesReceipt')
        .filter((r) => r.TotalAmt === 5),
    ).toEqual([]);

    for (const [method, path, body] of [
      [
        'POST',
        '/accounting/sales_orders',
        { sales_order: { customer_id: ref(c, 'customer', '1'), issue_date: today, line_items: [{ total_amount: 1 }] } },
      ],
    ] as const) {
      const refused = await send(method, path, body);
      expect([refused.statusCode, errorBody(refused).error_code], path).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    }
    expectNoViolations();
  });

  /** The answer of a write sent with response_mode async, once its job has finished. */
  async function asyncAnswer(response: Awaited<ReturnType<typeof send>>): Promise<{ status: string; http_status: number; body: Json }> {
    expect(response.statusCode, response.body).toBe(202);
    for (let i = 0; i < 150; i++) {
      const job = json(await send('GET', `/jobs/${jobIdOf(response)}`));
      const answer = job.response as { http_status: number; body: Json } | undefined;
      if (job.status !== 'pending' && answer !== undefined) return { status: String(job.status), ...answer };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the write job did not finish');
  }
  /** POSTs of an entity sent to the stand-in since `from` in its log, with their query. */
  const writesTo = (entity: string, from: number): string[] =>
    qbo.log
      .slice(from)
      .filter((r) => r.method === 'POST' && r.path.endsWith(`/${entity}`))
      .map((r) => {
        const query = new URLSearchParams(r.query);
        for (const name of ['requestid', 'minorversion']) query.delete(name);
        return query.toString();
      });

  it('creates an invoice of item lines (prefer_sync and async), updates it sparsely, voids it and deletes it as QBO Invoice', async () => {
    const lines = [
      // account_id beside the item is the item's income account, where QBO posts the line (checked with QBO).
      {
        total_amount: 45,
        description: 'Three pumps',
        account_id: ref(c, 'account', '79'),
        item: { id: ref(c, 'item', '11'), quantity: 3, unit_amount: 15 },
      },
      { total_amount: 20, item: { id: ref(c, 'item', '11') } },
    ];
    const response = await send('POST', '/accounting/invoices', {
      invoice: {
        customer_id: ref(c, 'customer', '1'),
        issue_date: today,
        due_date: '2030-02-28',
        payment_terms_id: ref(c, 'payment_term', '3'),
        document_number: 'INV-77',
        memo: 'Pumps for the fountain',
        currency_code: 'USD',
        line_items: lines,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).invoice as Json;
    const id = String(created.platform_id);
    expect(company().find('Invoice', id)).toMatchObject({
      CustomerRef: { value: '1' },
      TxnDate: today,
      DueDate: '2030-02-28',
      SalesTermRef: { value: '3' },
      DocNumber: 'INV-77',
      PrivateNote: 'Pumps for the fountain',
      TotalAmt: 65,
      Balance: 65,
      SyncToken: '0',
      Line: [
        {
          DetailType: 'SalesItemLineDetail',
          Amount: 45,
          Description: 'Three pumps',
          SalesItemLineDetail: { ItemRef: { value: '11' }, Qty: 3, UnitPrice: 15, ItemAccountRef: { value: '79' } },
        },
        { DetailType: 'SalesItemLineDetail', Amount: 20, SalesItemLineDetail: { ItemRef: { value: '11' }, Qty: 1 } },
      ],
    });
    expect(created).toMatchObject({
      customer_id: ref(c, 'customer', '1'),
      payment_terms_id: ref(c, 'payment_term', '3'),
      status: 'open',
      total_amount: 65,
      amount_due: 65,
      memo: 'Pumps for the fountain',
      line_items: [
        { account_id: ref(c, 'account', '79'), total_amount: 45, item: { id: ref(c, 'item', '11'), quantity: 3, unit_amount: 15 } },
        { account_id: ref(c, 'account', '79'), total_amount: 20 },
      ],
    });
    expect(json(await send('GET', `/accounting/invoices/${String(created.id)}`)).invoice).toEqual(created);

    // The same through a job answered later.
    const later = await asyncAnswer(
      await send('POST', '/accounting/invoices', {
        response_mode: 'async',
        invoice: { customer_id: ref(c, 'customer', '3'), issue_date: today, document_number: 'INV-78', line_items: [lines[1]] },
      }),
    );
    expect([later.status, later.http_status]).toEqual(['success', 200]);
    const second = later.body.invoice as Json;
    expect(company().find('Invoice', String(second.platform_id))).toMatchObject({ CustomerRef: { value: '3' }, DocNumber: 'INV-78', TotalAmt: 20 });

    // A sparse update: the lines replaced, the number kept.
    const patched = await send('PATCH', `/accounting/invoices/${String(created.id)}`, {
      invoice: { memo: 'Two pumps', line_items: [{ total_amount: 30, item: { id: ref(c, 'item', '11'), quantity: 2, unit_amount: 15 } }] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(company().find('Invoice', id)).toMatchObject({ SyncToken: '1', PrivateNote: 'Two pumps', TotalAmt: 30, Balance: 30, DocNumber: 'INV-77' });
    expect(json(patched).invoice).toMatchObject({ memo: 'Two pumps', total_amount: 30, amount_due: 30, document_number: 'INV-77' });

    // Fields QBO cannot hold are refused by name, and QBO is not written to.
    const log = qbo.log.length;
    for (const [body, field] of [
      [{ status: 'draft' }, 'status'],
      [{ line_items: [{ total_amount: 5, discount_amount: 1, item: { id: ref(c, 'item', '11') } }] }, 'line_items[0].discount_amount'],
      [{ line_items: [{ total_amount: 5, account_id: ref(c, 'account', '7'), item: { id: ref(c, 'item', '11') } }] }, 'line_items[0].account_id'],
      [{ line_items: [{ total_amount: 5, account_id: ref(c, 'account', '79') }] }, 'line_items[0].item'],
      [{ status: 'void', memo: 'Voided with a note' }, 'memo'],
    ] as const) {
      const refused = await send('PATCH', `/accounting/invoices/${String(created.id)}`, { invoice: body });
      expect([refused.statusCode, errorBody(refused).error_metadata?.field], JSON.stringify(body)).toEqual([400, field]);
    }
    expect(writesTo('invoice', log)).toEqual([]);

    // status void is QBO's void operation: amounts zeroed, "Voided" before the memo.
    const voided = await send('PATCH', `/accounting/invoices/${String(created.id)}`, { invoice: { status: 'void' } });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(writesTo('invoice', log)).toEqual(['operation=void']);
    expect(company().find('Invoice', id)).toMatchObject({ TotalAmt: 0, Balance: 0, SyncToken: '2' });
    expect(json(voided).invoice).toMatchObject({ status: 'void', total_amount: 0, amount_due: 0 });

    // DELETE deletes the transaction, asynchronously here.
    const deleted = await asyncAnswer(await send('DELETE', `/accounting/invoices/${String(created.id)}?response_mode=async`));
    expect([deleted.status, deleted.http_status, deleted.body]).toEqual(['success', 200, { code: 'deleted', success: true }]);
    expect(company().find('Invoice', id)).toBeNull();
    expect((await storedOne(c.connection.id, 'invoice', id)).deleted_at).not.toBeNull();
    expect(writesTo('invoice', log).at(-1)).toBe('operation=delete');
    expectNoViolations();
  });

  it('takes a payment of an invoice (prefer_sync and async) as QBO Payment, updates its allocation, voids it and deletes it', async () => {
    const invoice = json(
      await send('POST', '/accounting/invoices', {
        invoice: {
          customer_id: ref(c, 'customer', '1'),
          issue_date: today,
          document_number: 'INV-PAY',
          line_items: [{ total_amount: 100, item: { id: ref(c, 'item', '11') } }],
        },
      }),
    ).invoice as Json;
    const invoiceId = String(invoice.platform_id);
    const pay = (amount: number) => ({ linked_invoices: [{ id: String(invoice.id), allocated_amount: amount }] });
    const response = await send('POST', '/accounting/invoice_payments', {
      invoice_payment: {
        customer_id: ref(c, 'customer', '1'),
        account_id: ref(c, 'account', '35'),
        transaction_date: today,
        reference: 'CHK 5150',
        memo: 'Part payment',
        ...pay(60),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).invoice_payment as Json;
    const id = String(created.platform_id);
    expect(company().find('Payment', id)).toMatchObject({
      CustomerRef: { value: '1' },
      DepositToAccountRef: { value: '35' },
      TxnDate: today,
      PaymentRefNum: 'CHK 5150',
      PrivateNote: 'Part payment',
      TotalAmt: 60,
      UnappliedAmt: 0,
      Line: [{ Amount: 60, LinkedTxn: [{ TxnId: invoiceId, TxnType: 'Invoice' }] }],
    });
    expect(company().find('Invoice', invoiceId)).toMatchObject({ Balance: 40, LinkedTxn: [{ TxnId: id, TxnType: 'Payment' }] });
    expect(created).toMatchObject({
      customer_id: ref(c, 'customer', '1'),
      account_id: ref(c, 'account', '35'),
      reference: 'CHK 5150',
      memo: 'Part payment',
      status: 'active',
      total_amount: 60,
      linked_invoices: [{ id: String(invoice.id), allocated_amount: 60 }],
    });
    expect(json(await send('GET', `/accounting/invoice_payments/${String(created.id)}`)).invoice_payment).toEqual(created);
    // The invoice QBO changed with it is read by the next sync (ChangeDataCapture).
    await expectSynced(t, c.connection.id, 'incremental');
    expect((await storedOne(c.connection.id, 'invoice', invoiceId)).data).toMatchObject({ amount_due: 40, status: 'partially_paid' });

    // The whole invoice, through a job answered later: the allocation replaced, the total with it.
    const paid = await asyncAnswer(
      await send('PATCH', `/accounting/invoice_payments/${String(created.id)}`, { response_mode: 'async', invoice_payment: pay(100) }),
    );
    expect([paid.status, paid.http_status]).toEqual(['success', 200]);
    expect(company().find('Payment', id)).toMatchObject({ TotalAmt: 100, SyncToken: '1' });
    expect(company().find('Invoice', invoiceId)).toMatchObject({ Balance: 0 });
    // Paying more than is open is QBO's to refuse, and its refusal reaches the client.
    const overpaid = await send('POST', '/accounting/invoice_payments', {
      invoice_payment: { customer_id: ref(c, 'customer', '1'), account_id: ref(c, 'account', '35'), transaction_date: today, ...pay(1) },
    });
    expect([overpaid.statusCode, errorBody(overpaid).error_code]).toEqual([450, 'PLATFORM_BAD_REQUEST']);
    expect(qbo.violations.splice(0).map((v) => v.reason)).toEqual([
      `Business Validation Error: the payment applies more than Invoice ${invoiceId} has open`,
    ]);

    // A void is status void alone; a new payment is not created void. Nothing reaches QBO.
    const log = qbo.log.length;
    const withMemo = await send('PATCH', `/accounting/invoice_payments/${String(created.id)}`, {
      invoice_payment: { status: 'void', memo: 'Bounced' },
    });
    expect([withMemo.statusCode, errorBody(withMemo).error_metadata?.field]).toEqual([400, 'memo']);
    const bornVoid = await send('POST', '/accounting/invoice_payments', {
      invoice_payment: {
        customer_id: ref(c, 'customer', '1'),
        account_id: ref(c, 'account', '35'),
        transaction_date: today,
        status: 'void',
        ...pay(1),
      },
    });
    expect([bornVoid.statusCode, errorBody(bornVoid).error_metadata?.field]).toEqual([400, 'status']);
    expect(writesTo('payment', log)).toEqual([]);

    const voided = await send('PATCH', `/accounting/invoice_payments/${String(created.id)}`, { invoice_payment: { status: 'void' } });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(writesTo('payment', log)).toEqual(['operation=update&include=void']);
    expect(company().find('Payment', id)).toMatchObject({ TotalAmt: 0, PrivateNote: 'Voided - Part payment' });
    expect(company().find('Invoice', invoiceId)).toMatchObject({ Balance: 100 });
    expect(json(voided).invoice_payment).toMatchObject({ status: 'void', total_amount: 0 });

    const deleted = await asyncAnswer(await send('DELETE', `/accounting/invoice_payments/${String(created.id)}?response_mode=async`));
    expect([deleted.status, deleted.http_status, deleted.body]).toEqual(['success', 200, { code: 'deleted', success: true }]);
    expect(company().find('Payment', id)).toBeNull();
    expect(writesTo('payment', log).at(-1)).toBe('operation=delete');
    expect((await storedOne(c.connection.id, 'invoice_payment', id)).deleted_at).not.toBeNull();
    expectNoViolations();
  });

  it("passes QuickBooks' refusal on to the client with QBO's own message", async () => {
    // The item was deleted in QuickBooks after the last sync: only QBO can tell.
    company().remove('Item', '3');
    const response = await send('POST', '/accounting/bills', {
      bill: {
        vendor_id: ref(c, 'vendor', '56'),
        issue_date: today,
        line_items: [{ account_id: ref(c, 'account', '7'), total_amount: 5, item: { id: ref(c, 'item', '3'), quantity: 1, unit_amount: 5 } }],
      },
    });
    expect(response.statusCode, response.body).toBe(450);
    expect(errorBody(response)).toMatchObject({
      error_code: 'PLATFORM_BAD_REQUEST',
      error_metadata: {
        human_readable: 'Invalid Reference Id : Item 3 does not exist (Line.ItemBasedExpenseLineDetail.ItemRef)',
        platform: { code: '2500', status: 400 },
      },
    });
    // The stand-in refused it as QBO would, and says so.
    expect(qbo.violations.splice(0).map((v) => v.reason)).toEqual(['Invalid Reference Id : Item 3 does not exist']);
  });

  it('creates a customer, archives it, and reports a duplicate display name as a conflict on customer_name', async () => {
    const response = await send('POST', '/accounting/customers', {
      customer: {
        customer_name: 'Zed Zebra Supplies',
        contact_name: 'Zed Zebra',
        email: 'zed@example.com',
        phone: '(650) 555-0100',
        currency_code: 'USD',
        payment_terms_id: ref(c, 'payment_term', '3'),
        addresses: [
          {
            type: 'billing',
            address1: '1 Savanna Way',
            address2: null,
            address3: null,
            city: 'Palo Alto',
            region: 'CA',
            postal_code: '94301',
            country: 'US',
          },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).customer as Json;
    expect(company().find('Customer', String(created.platform_id))).toMatchObject({
      DisplayName: 'Zed Zebra Supplies',
      GivenName: 'Zed',
      FamilyName: 'Zebra',
      PrimaryEmailAddr: { Address: 'zed@example.com' },
      PrimaryPhone: { FreeFormNumber: '(650) 555-0100' },
      SalesTermRef: { value: '3' },
      BillAddr: { Line1: '1 Savanna Way', City: 'Palo Alto', CountrySubDivisionCode: 'CA', PostalCode: '94301', Country: 'US' },
      Active: true,
    });
    expect(created).toMatchObject({
      customer_name: 'Zed Zebra Supplies',
      contact_name: 'Zed Zebra',
      status: 'active',
      payment_terms_id: ref(c, 'payment_term', '3'),
    });
    expect([created.first_name, created.last_name]).toEqual(['Zed', 'Zebra']);
    // The reference's vendor fields: DisplayName shown, CurrencyRef its only currency; bank details only in Australian companies.
    expect((await storedOne(c.connection.id, 'vendor', '46')).data).toMatchObject({
      display_name: 'Norton Lumber and Building Materials',
      currency_codes: ['USD'],
      bank_account_number: null,
    });

    const archived = await send('PATCH', `/accounting/customers/${String(created.id)}`, { customer: { status: 'archived' } });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(company().find('Customer', String(created.platform_id))).toMatchObject({
      Active: false,
      DisplayName: 'Zed Zebra Supplies',
      SyncToken: '1',
    });
    expect(json(archived).customer).toMatchObject({ status: 'archived' });

    const duplicate = await send('POST', '/accounting/customers', { customer: { customer_name: 'Cool Cars' } });
    expect(duplicate.statusCode).toBe(409);
    expect(errorBody(duplicate)).toMatchObject({ error_code: 'DUPLICATE_VALUE_CONFLICT', error_metadata: { duplicate_property: 'customer_name' } });
    expect(qbo.violations.splice(0).map((v) => v.reason)).toEqual([
      expect.stringContaining('Another customer, vendor or employee is already using this name (Cool Cars)'),
    ]);
  });

  it('creates a class under another, a department and a payment term as QBO Class, Department and Term', async () => {
    const parent = ref(c, 'class', '5000000000000007280');
    const klass = await send('POST', '/accounting/classes', { class: { name: 'Lyon', parent_id: parent } });
    expect(klass.statusCode, klass.body).toBe(200);
    const createdClass = json(klass).class as Json;
    expect(createdClass).toMatchObject({ name: 'Lyon', parent_id: parent, status: 'active' });
    expect(company().find('Class', String(createdClass.platform_id))).toMatchObject({
      Name: 'Lyon',
      ParentRef: { value: '5000000000000007280' },
      SubClass: true,
      Active: true,
    });
    const department = await send('POST', '/accounting/departments', { department: { name: 'Field Sales', status: 'archived' } });
    expect(department.statusCode, department.body).toBe(200);
    const createdDepartment = json(department).department as Json;
    expect(createdDepartment).toMatchObject({ name: 'Field Sales', parent_id: null, status: 'archived' });
    expect(company().find('Department', String(createdDepartment.platform_id))).toMatchObject({ Name: 'Field Sales', Active: false });
    const term = await send('POST', '/accounting/payment_terms', {
      payment_term: { name: '2% 10 Net 45', due_days: 45, discount_days: 10, discount_percentage: 2 },
    });
    expect(term.statusCode, term.body).toBe(200);
    const createdTerm = json(term).payment_term as Json;
    expect(createdTerm).toMatchObject({ term_name: '2% 10 Net 45', due_days: 45, discount_days: 10, discount_percent: 2, status: 'active' });
    expect(company().find('Term', String(createdTerm.platform_id))).toMatchObject({
      DueDays: 45,
      DiscountDays: 10,
      DiscountPercent: 2,
      Active: true,
    });
    expectNoViolations();
  });

  it('deletes a payment term or a vendor by making it inactive, as QBO does with name lists', async () => {
    for (const [type, entity, platformId, plural] of [
      ['payment_term', 'Term', '2', 'payment_terms'],
      ['vendor', 'Vendor', '56', 'vendors'],
    ] as const) {
      const id = ref(c, type, platformId);
      const deleted = await send('DELETE', `/accounting/${plural}/${id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(json(deleted)).toEqual({ code: 'deleted', success: true });
      // QBO keeps it, inactive; the stored copy is gone until a sync reads it again (as archived).
      expect(company().find(entity, platformId)).toMatchObject({ Active: false, SyncToken: '1' });
      expect((await send('GET', `/accounting/${plural}/${id}`)).statusCode).toBe(410);
    }
    // Classes and departments take no delete or update here: the contract has neither.
    expect((await send('DELETE', `/accounting/classes/${ref(c, 'class', '5000000000000007280')}`)).statusCode).toBe(404);
    expectNoViolations();
  });

  it('creates a vendor, changes it sparsely, deletes it by making it inactive, and reports a duplicate display name on vendor_name', async () => {
    const response = await send('POST', '/accounting/vendors', {
      vendor: {
        vendor_name: 'Zed Timber Co',
        contact_name: 'Zoe Ann Timber',
        email: 'ap@zedtimber.example',
        phone: '(650) 555-0199',
        website: 'https://zedtimber.example',
        tax_number: '12-3456789',
        currency_code: 'USD',
        payment_terms_id: ref(c, 'payment_term', '3'),
        addresses: [{ type: 'billing', address1: '9 Mill Road', city: 'Eugene', region: 'OR', postal_code: '97401', country: 'US' }],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).vendor as Json;
    const platformId = String(created.platform_id);
    expect(company().find('Vendor', platformId)).toMatchObject({
      DisplayName: 'Zed Timber Co',
      GivenName: 'Zoe',
      FamilyName: 'Ann Timber',
      PrimaryEmailAddr: { Address: 'ap@zedtimber.example' },
      PrimaryPhone: { FreeFormNumber: '(650) 555-0199' },
      WebAddr: { URI: 'https://zedtimber.example' },
      TaxIdentifier: '12-3456789',
      TermRef: { value: '3' },
      CurrencyRef: { value: 'USD' },
      BillAddr: { Line1: '9 Mill Road', City: 'Eugene', CountrySubDivisionCode: 'OR', PostalCode: '97401', Country: 'US' },
      Active: true,
    });
    expect(created).toMatchObject({
      vendor_name: 'Zed Timber Co',
      contact_name: 'Zoe Ann Timber',
      email: 'ap@zedtimber.example',
      website: 'https://zedtimber.example',
      tax_number: '12-3456789',
      payment_terms_id: ref(c, 'payment_term', '3'),
      status: 'active',
      addresses: [expect.objectContaining({ type: 'billing', address1: '9 Mill Road', city: 'Eugene' })],
    });
    expect(json(await send('GET', `/accounting/vendors/${String(created.id)}`)).vendor).toEqual(created);

    const changed = await send('PATCH', `/accounting/vendors/${String(created.id)}`, { vendor: { phone: '(650) 555-0123', status: 'archived' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(company().find('Vendor', platformId)).toMatchObject({
      PrimaryPhone: { FreeFormNumber: '(650) 555-0123' },
      Active: false,
      DisplayName: 'Zed Timber Co',
      TaxIdentifier: '12-3456789',
      SyncToken: '1',
    });
    expect(json(changed).vendor).toMatchObject({ phone: '(650) 555-0123', status: 'archived', vendor_name: 'Zed Timber Co' });

    const deleted = await send('DELETE', `/accounting/vendors/${String(created.id)}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(company().find('Vendor', platformId)).toMatchObject({ Active: false, SyncToken: '2' });

    // What QBO cannot hold is refused, naming the field, and QBO is not called.
    const posts = qbo.log.filter((r) => r.method === 'POST' && r.path.endsWith('/vendor')).length;
    for (const [vendor, field] of [
      [{ vendor_name: 'Zed Sub', parent_id: ref(c, 'vendor', '46') }, 'parent_id'],
      [{ vendor_name: 'Zed Reg', registration_number: 'HRB 1234' }, 'registration_number'],
      [{ vendor_name: 'Zed Ship', addresses: [{ type: 'shipping', address1: '1 Dock St' }] }, 'addresses[0].type'],
    ] as const) {
      const refused = await send('POST', '/accounting/vendors', { vendor });
      expect([refused.statusCode, errorBody(refused).error_metadata?.field], field).toEqual([400, field]);
    }
    expect(qbo.log.filter((r) => r.method === 'POST' && r.path.endsWith('/vendor')).length).toBe(posts);

    // A display name is unique across customers, vendors and employees in QBO.
    const duplicate = await send('POST', '/accounting/vendors', { vendor: { vendor_name: 'Books by Bessie' } });
    expect(duplicate.statusCode).toBe(409);
    expect(errorBody(duplicate)).toMatchObject({ error_code: 'DUPLICATE_VALUE_CONFLICT', error_metadata: { duplicate_property: 'vendor_name' } });
    expect(qbo.violations.splice(0).map((v) => v.reason)).toEqual([
      expect.stringContaining('Another customer, vendor or employee is already using this name (Books by Bessie)'),
    ]);
  });

  it('pays a bill by check from a bank account, changes, voids and deletes the payment; a card account pays by credit card', async () => {
    const bill = ref(c, 'bill', '126');
    const balance = (): unknown => company().find('Bill', '126')?.Balance;
    expect(balance()).toBe(100);
    const response = await send('POST', '/accounting/bill_payments', {
      bill_payment: {
        vendor_id: ref(c, 'vendor', '30'),
        account_id: ref(c, 'account', '35'),
        transaction_date: today,
        document_number: '2044',
        memo: 'Catalogue run',
        linked_bills: [{ id: bill, allocated_amount: 60 }],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).bill_payment as Json;
    const platformId = String(created.platform_id);
    expect(company().find('BillPayment', platformId)).toMatchObject({
      VendorRef: { value: '30' },
      PayType: 'Check',
      CheckPayment: { BankAccountRef: { value: '35' } },
      TxnDate: today,
      DocNumber: '2044',
      PrivateNote: 'Catalogue run',
      TotalAmt: 60,
      Line: [{ Amount: 60, LinkedTxn: [{ TxnId: '126', TxnType: 'Bill' }] }],
    });
    expect(balance()).toBe(40);
    expect(created).toMatchObject({
      vendor_id: ref(c, 'vendor', '30'),
      account_id: ref(c, 'account', '35'),
      total_amount: 60,
      reference: '2044',
      status: 'active',
      linked_bills: [{ id: bill, allocated_amount: 60 }],
    });

    const changed = await send('PATCH', `/accounting/bill_payments/${String(created.id)}`, {
      bill_payment: { memo: 'Catalogue run (part)', linked_bills: [{ id: bill, allocated_amount: 40 }] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(company().find('BillPayment', platformId)).toMatchObject({ TotalAmt: 40, PrivateNote: 'Catalogue run (part)', SyncToken: '1' });
    expect(balance()).toBe(60);

    // QBO's void: an update with include=void; the bill is open again and the payment kept, void.
    const posts = qbo.log.length;
    const voided = await send('PATCH', `/accounting/bill_payments/${String(created.id)}`, { bill_payment: { status: 'void' } });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(qbo.log.slice(posts).some((r) => r.method === 'POST' && r.query.includes('include=void'))).toBe(true);
    expect(json(voided).bill_payment).toMatchObject({ status: 'void', total_amount: 0 });
    expect(balance()).toBe(100);
    const voidWithMore = await send('PATCH', `/accounting/bill_payments/${String(created.id)}`, { bill_payment: { status: 'void', memo: 'x' } });
    expect([voidWithMore.statusCode, errorBody(voidWithMore).error_metadata?.field]).toEqual([400, 'memo']);

    const deleted = await send('DELETE', `/accounting/bill_payments/${String(created.id)}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(company().find('BillPayment', platformId)).toBeNull();

    const card = await send('POST', '/accounting/bill_payments', {
      bill_payment: {
        vendor_id: ref(c, 'vendor', '30'),
        account_id: ref(c, 'account', '41'),
        transaction_date: today,
        linked_bills: [{ id: bill, allocated_amount: 25.5 }],
      },
    });
    expect(card.statusCode, card.body).toBe(200);
    const cardPayment = json(card).bill_payment as Json;
    expect(company().find('BillPayment', String(cardPayment.platform_id))).toMatchObject({
      PayType: 'CreditCard',
      CreditCardPayment: { CCAccountRef: { value: '41' } },
      TotalAmt: 25.5,
    });
    expect(cardPayment).toMatchObject({ account_id: ref(c, 'account', '41'), total_amount: 25.5 });
    expect(balance()).toBe(74.5);

    // What QBO cannot hold is refused, naming the field, and no payment is sent.
    const sent = qbo.log.filter((r) => r.method === 'POST' && r.path.endsWith('/billpayment')).length;
    const base = { vendor_id: ref(c, 'vendor', '30'), transaction_date: today, linked_bills: [{ id: bill, allocated_amount: 1 }] };
    for (const [payment, field] of [
      [{ ...base, account_id: ref(c, 'account', '7') }, 'account_id'],
      [{ ...base, account_id: ref(c, 'account', '35'), document_number: '1', reference: '2' }, 'reference'],
      [{ ...base, account_id: ref(c, 'account', '35'), additional_fields: {} }, 'additional_fields'],
    ] as const) {
      const refused = await send('POST', '/accounting/bill_payments', { bill_payment: payment });
      expect([refused.statusCode, errorBody(refused).error_metadata?.field], field).toEqual([400, field]);
    }
    expect(qbo.log.filter((r) => r.method === 'POST' && r.path.endsWith('/billpayment')).length).toBe(sent);
    expectNoViolations();
  });

  it('creates, updates and deletes a bill credit memo as a VendorCredit of expense lines; applying or voiding it here is refused', async () => {
    const response = await send('POST', '/accounting/bill_credit_memos', {
      bill_credit_memo: {
        vendor_id: ref(c, 'vendor', '30'),
        issue_date: today,
        document_number: 'VC-77',
        memo: 'Returned boards',
        line_items: [
          { account_id: ref(c, 'account', '64'), total_amount: 30.25, description: 'Boards', department_id: ref(c, 'department', '1') },
          {
            account_id: ref(c, 'account', '80'),
            total_amount: 10,
            item: { id: ref(c, 'item', '11'), quantity: 2, unit_amount: 5 },
            department_id: ref(c, 'department', '1'),
          },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).bill_credit_memo as Json;
    const platformId = String(created.platform_id);
    expect(company().find('VendorCredit', platformId)).toMatchObject({
      VendorRef: { value: '30' },
      TxnDate: today,
      DocNumber: 'VC-77',
      PrivateNote: 'Returned boards',
      DepartmentRef: { value: '1' },
      TotalAmt: 40.25,
      Balance: 40.25,
      Line: [
        {
          DetailType: 'AccountBasedExpenseLineDetail',
          Amount: 30.25,
          Description: 'Boards',
          AccountBasedExpenseLineDetail: { AccountRef: { value: '64' } },
        },
        { DetailType: 'ItemBasedExpenseLineDetail', Amount: 10, ItemBasedExpenseLineDetail: { ItemRef: { value: '11' }, Qty: 2, UnitPrice: 5 } },
      ],
    });
    expect(created).toMatchObject({
      vendor_id: ref(c, 'vendor', '30'),
      document_number: 'VC-77',
      total_amount: 40.25,
      remaining_amount: 40.25,
      status: 'open',
      memo: 'Returned boards',
    });

    const changed = await send('PATCH', `/accounting/bill_credit_memos/${String(created.id)}`, {
      bill_credit_memo: { memo: 'Returned boards (part)', line_items: [{ account_id: ref(c, 'account', '64'), total_amount: 12 }] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(company().find('VendorCredit', platformId)).toMatchObject({
      TotalAmt: 12,
      PrivateNote: 'Returned boards (part)',
      DocNumber: 'VC-77',
      SyncToken: '1',
    });
    expect(json(changed).bill_credit_memo).toMatchObject({ total_amount: 12, memo: 'Returned boards (part)' });

    // QBO applies a vendor credit through a bill payment and never voids one: refused, naming the field, nothing sent.
    const sent = qbo.log.filter((r) => r.method === 'POST' && r.path.endsWith('/vendorcredit')).length;
    for (const [patch, field] of [
      [{ linked_bills: [{ id: ref(c, 'bill', '108'), allocated_amount: 1 }] }, 'linked_bills'],
      [{ status: 'void' }, 'status'],
      [{ line_items: [{ account_id: ref(c, 'account', '64'), total_amount: 1, tax_rate_id: ref(c, 'tax_rate', '3') }] }, 'line_items[0].tax_rate_id'],
    ] as const) {
      const refused = await send('PATCH', `/accounting/bill_credit_memos/${String(created.id)}`, { bill_credit_memo: patch });
      expect([refused.statusCode, errorBody(refused).error_metadata?.field], field).toEqual([400, field]);
    }
    // A credit application is an update of the memo's linked_bills where the platform has no endpoint of its own.
    const application = await send('POST', '/accounting/bill_credit_applications', {
      bill_credit_application: { bill_credit_memo_id: String(created.id), linked_bills: [{ id: ref(c, 'bill', '126'), allocated_amount: 1 }] },
    });
    expect([application.statusCode, errorBody(application).error_metadata?.field], application.body).toEqual([400, 'linked_bills']);
    expect(qbo.log.filter((r) => r.method === 'POST' && r.path.endsWith('/vendorcredit')).length).toBe(sent);

    const deleted = await send('DELETE', `/accounting/bill_credit_memos/${String(created.id)}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(company().find('VendorCredit', platformId)).toBeNull();
    expectNoViolations();
  });

  it('creates (prefer_sync), updates and deletes (async) an expense as a Purchase; what QBO cannot take is refused unsent', async () => {
    const response = await send('POST', '/accounting/expenses', {
      expense: {
        account_id: ref(c, 'account', '41'),
        vendor_id: ref(c, 'vendor', '30'),
        transaction_date: today,
        document_number: 'EXP-77',
        memo: 'Garden supplies',
        line_items: [
          { account_id: ref(c, 'account', '64'), total_amount: 30.25, description: 'Soil' },
          { account_id: ref(c, 'account', '80'), total_amount: 10, item: { id: ref(c, 'item', '11'), quantity: 2, unit_amount: 5 } },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).expense as Json;
    const platformId = String(created.platform_id);
    // No payment_type: a credit card account's Purchase is a card charge.
    expect(company().find('Purchase', platformId)).toMatchObject({
      AccountRef: { value: '41' },
      PaymentType: 'CreditCard',
      EntityRef: { value: '30', type: 'Vendor' },
      TxnDate: today,
      DocNumber: 'EXP-77',
      PrivateNote: 'Garden supplies',
      TotalAmt: 40.25,
      Line: [
        { DetailType: 'AccountBasedExpenseLineDetail', Amount: 30.25, AccountBasedExpenseLineDetail: { AccountRef: { value: '64' } } },
        { DetailType: 'ItemBasedExpenseLineDetail', Amount: 10, ItemBasedExpenseLineDetail: { ItemRef: { value: '11' }, Qty: 2, UnitPrice: 5 } },
      ],
    });
    expect(created).toMatchObject({
      account_id: ref(c, 'account', '41'),
      vendor_id: ref(c, 'vendor', '30'),
      payment_type: 'credit_card',
      expense_type: 'expense',
      document_number: 'EXP-77',
      total_amount: 40.25,
    });

    // Paid from the bank by check instead: payment_type is QBO's PaymentType.
    const changed = await send('PATCH', `/accounting/expenses/${String(created.id)}`, {
      expense: {
        account_id: ref(c, 'account', '35'),
        payment_type: 'check',
        line_items: [{ account_id: ref(c, 'account', '64'), total_amount: 12 }],
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(company().find('Purchase', platformId)).toMatchObject({
      AccountRef: { value: '35' },
      PaymentType: 'Check',
      TotalAmt: 12,
      DocNumber: 'EXP-77',
      SyncToken: '1',
    });
    expect(json(changed).expense).toMatchObject({ account_id: ref(c, 'account', '35'), payment_type: 'check', total_amount: 12 });

    // A refund (no platform's expense write takes one yet), an account money is not paid from, a line field QBO has not:
    // 400 naming it, no Purchase sent.
    const sent = qbo.log.filter((r) => r.method === 'POST' && r.path.endsWith('/purchase')).length;
    for (const [patch, field] of [
      [{ account_id: ref(c, 'account', '41'), expense_type: 'refund' }, 'expense.expense_type'],
      [{ account_id: ref(c, 'account', '64') }, 'account_id'],
      [{ line_items: [{ account_id: ref(c, 'account', '64'), total_amount: 1, tax_rate_id: ref(c, 'tax_rate', '3') }] }, 'line_items[0].tax_rate_id'],
    ] as const) {
      const refused = await send('PATCH', `/accounting/expenses/${String(created.id)}`, { expense: patch });
      expect([refused.statusCode, errorBody(refused).error_metadata?.field], field).toEqual([400, field]);
    }
    expect(qbo.log.filter((r) => r.method === 'POST' && r.path.endsWith('/purchase')).length).toBe(sent);

    const log = qbo.log.length;
    const deleted = await asyncAnswer(await send('DELETE', `/accounting/expenses/${String(created.id)}?response_mode=async`));
    expect([deleted.status, deleted.http_status, deleted.body]).toEqual(['success', 200, { code: 'deleted', success: true }]);
    expect(company().find('Purchase', platformId)).toBeNull();
    expect(writesTo('purchase', log).at(-1)).toBe('operation=delete');
    expectNoViolations();
  });

  it('creates an item, changes it sparsely, archives it for a DELETE QBO does not have, and reports a duplicate name on name', async () => {
    const response = await send('POST', '/accounting/items', {
      item: {
        name: 'Zed Garden Consult',
        code: 'ZGC-1',
        type: 'service',
        invoice_item: { unit_price: 95.5, account_id: ref(c, 'account', '79'), description: 'Garden consultation' },
        bill_item: { unit_price: 40, account_id: ref(c, 'account', '58'), description: 'Subcontracted consult' },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response).item as Json;
    expect(company().find('Item', String(created.platform_id))).toMatchObject({
      Name: 'Zed Garden Consult',
      Sku: 'ZGC-1',
      Type: 'Service',
      UnitPrice: 95.5,
      PurchaseCost: 40,
      Description: 'Garden consultation',
      PurchaseDesc: 'Subcontracted consult',
      IncomeAccountRef: { value: '79' },
      ExpenseAccountRef: { value: '58' },
    });
    expect(created).toMatchObject({
      name: 'Zed Garden Consult',
      type: 'service',
      status: 'active',
      invoice_item: { unit_price: 95.5, account_id: ref(c, 'account', '79') },
      bill_item: { unit_price: 40, description: 'Subcontracted consult' },
    });

    const changed = await send('PATCH', `/accounting/items/${String(created.id)}`, { item: { invoice_item: { unit_price: 110 } } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(company().find('Item', String(created.platform_id))).toMatchObject({ UnitPrice: 110, PurchaseCost: 40, SyncToken: '1' });

    // QBO makes items inactive and never deletes one: DELETE is not offered, archiving is.
    const removed = await send('DELETE', `/accounting/items/${String(created.id)}`);
    expect(removed.statusCode).toBe(404);
    expect(errorBody(removed).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
    const archived = await send('PATCH', `/accounting/items/${String(created.id)}`, { item: { status: 'archived' } });
    expect(json(archived).item).toMatchObject({ status: 'archived' });
    expect(company().find('Item', String(created.platform_id))).toMatchObject({ Active: false, Name: 'Zed Garden Consult' });

    const refused = await send('POST', '/accounting/items', {
      item: { name: 'Zed Tax', type: 'service', invoice_item: { account_id: ref(c, 'account', '79'), tax_rate_id: ref(c, 'tax_rate', '3') } },
    });
    expect(errorBody(refused).error_metadata?.field).toMatch(/invoice_item\.tax_rate_id/);
    const duplicate = await send('POST', '/accounting/items', {
      item: { name: 'Pump', type: 'service', invoice_item: { account_id: ref(c, 'account', '79') } },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(errorBody(duplicate)).toMatchObject({ error_code: 'DUPLICATE_VALUE_CONFLICT', error_metadata: { duplicate_property: 'name' } });
    expect(qbo.violations.splice(0).map((v) => v.reason)).toEqual([
      expect.stringContaining('Another product or service is already using this name (Pump)'),
    ]);
  });

  it('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM for purchase order writes, which this connector does not offer', async () => {
    const vendor = ref(c, 'vendor', '46');
    for (const [method, path] of [
      ['POST', '/accounting/purchase_orders'],
      ['PATCH', `/accounting/purchase_orders/${vendor}`],
      ['DELETE', `/accounting/purchase_orders/${vendor}`],
    ] as const) {
      const body =
        method === 'DELETE'
          ? undefined
          : {
              purchase_order:
                method === 'POST'
                  ? { vendor_id: vendor, issue_date: today, line_items: [{ account_id: ref(c, 'account', '58'), total_amount: 5 }] }
                  : { memo: 'x' },
            };
      const answer = await send(method, path, body);
      expect(answer.statusCode, `${method} ${path}: ${answer.body}`).toBe(404);
      expect(errorBody(answer).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
    }
  });
});

describe('QuickBooks Online faults', () => {
  it("stores a transaction QuickBooks sends without CurrencyRef in the company's home currency, not XXX", async () => {
    const company = qbo.addCompany({ realmId: '9130350000000007', name: 'One Currency Company' });
    const c = await link('9130350000000007');
    await expectSynced(t, c.connection.id, 'initial');
    const [first] = company.list('Invoice');
    const invoiceId = String(first?.Id);
    company.edit('Invoice', invoiceId, (invoice) => {
      delete invoice.CurrencyRef;
      delete invoice.ExchangeRate;
    });
    await expectSynced(t, c.connection.id, 'incremental');
    const home = (await stored(c.connection.id, 'currency')).map((r) => r.platform_id);
    expect(home).toEqual(['USD']);
    const invoice = (await stored(c.connection.id, 'invoice')).find((r) => r.platform_id === invoiceId);
    expect(invoice?.raw.CurrencyRef).toBeUndefined();
    expect(invoice?.data.currency_code).toBe('USD');
    expectNoViolations();
  });

  it('loses no bill when bills of a page already read are deleted before the next page is asked for', async () => {
    const company = qbo.addCompany({ realmId: '9130350000000006', name: 'Deleting Company', generatedBills: 1_500 });
    const c = await link('9130350000000006');
    // Right after the first page of bills is answered (in Id order), someone deletes its first five bills in QuickBooks:
    // every later bill moves five positions down. Without the pages' overlap, five bills would slip into the page
    // already read and never be read.
    let deleted: string[] = [];
    qbo.afterNextQuery(
      'Bill',
      (books) => {
        deleted = books
          .list('Bill')
          .map((bill) => String(bill.Id))
          .sort()
          .slice(0, 5);
        for (const id of deleted) books.remove('Bill', id);
      },
      '9130350000000006',
    );
    await expectSynced(t, c.connection.id, 'initial');
    const expected = company
      .list('Bill')
      .map((r) => String(r.Id))
      .sort();
    const storedIds = new Set((await stored(c.connection.id, 'bill')).map((r) => r.platform_id));
    // Every bill still there is stored; the five deleted were read before they went, and go with the next sync.
    expect(expected.filter((id) => !storedIds.has(id))).toEqual([]);
    expect(deleted.every((id) => storedIds.has(id))).toBe(true);
    await expectSynced(t, c.connection.id, 'incremental');
    expect((await stored(c.connection.id, 'bill')).map((r) => r.platform_id).sort()).toEqual(expected);
    expectNoViolations();
  });

  it('refreshes exactly once when the access token expires mid-sync, and finishes the sync', async () => {
    qbo.addCompany({ realmId: '9130350000000002', name: 'Expiry Company' });
    const c = await link('9130350000000002');
    const calls = qbo.tokenCalls;
    qbo.expireAccessTokensAfter(5);
    await expectSynced(t, c.connection.id, 'initial');
    expect(qbo.tokenCalls - calls).toBe(1);
    expect(qbo.log.filter((r) => r.path.includes('/9130350000000002/') && r.status === 401)).toHaveLength(1);
    expect((await stored(c.connection.id, 'bill')).map((r) => r.platform_id)).toEqual(['108', '126', '25']);
    const tokens = await storedTokens(t, c.connection.id);
    expect(tokens?.tenantId).toBe('9130350000000002');
    expectNoViolations();
  });

  it("waits out a 429's Retry-After and retries 5xx answers", async () => {
    qbo.addCompany({ realmId: '9130350000000003', name: 'Throttled Company' });
    const c = await link('9130350000000003');
    qbo.failNext({ status: 429, count: 1, match: '/9130350000000003/query?query=SELECT * FROM Vendor ORDERBY', retryAfter: 1 });
    qbo.failNext({ status: 503, count: 2, match: '/9130350000000003/query?query=SELECT * FROM Account ORDERBY' });
    await expectSynced(t, c.connection.id, 'initial');
    const vendorCalls = qbo.log.filter((r) => r.path.includes('/9130350000000003/') && r.query.includes('FROM Vendor '));
    expect(vendorCalls.map((r) => r.status)).toEqual([429, 200]);
    expect((vendorCalls[1]?.at ?? 0) - (vendorCalls[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(qbo.log.filter((r) => r.path.includes('/9130350000000003/') && r.query.includes('FROM Account ')).map((r) => r.status)).toEqual([
      503, 503, 200,
    ]);
    expect(await stored(c.connection.id, 'vendor')).toHaveLength(4);
    expect(await stored(c.connection.id, 'account')).toHaveLength(23);
    expectNoViolations();
  });

  it('marks the connection needs_reauth and announces CONNECTION_NEEDS_UPDATE when the refresh token is revoked', async () => {
    qbo.addCompany({ realmId: '9130350000000004', name: 'Revoked Company' });
    // The stored token expired a minute ago: the sync refreshes first, and Intuit refuses the grant.
    const c = await link('9130350000000004', -60);
    qbo.revokeRefreshTokens();
    const calls = qbo.tokenCalls;
    expect(await syncConnection(t, c.connection.id, 'initial')).toBe('failed');
    expect(qbo.tokenCalls - calls).toBe(1);
    const status = await t.db.pool.query<{ status: string }>('SELECT status FROM connections WHERE id = $1', [c.connection.id]);
    expect(status.rows[0]?.status).toBe('needs_reauth');
    expect((await eventsOf(t, c.connection.id)).map((e) => e.code)).toContain('CONNECTION_NEEDS_UPDATE');
    expect(qbo.log.filter((r) => r.path.includes('/9130350000000004/'))).toEqual([]);
    expectNoViolations();
  });

  it('makes exactly one token call when twenty jobs find the same token expired', async () => {
    qbo.addCompany({ realmId: '9130350000000005', name: 'Race Company' });
    const c = await link('9130350000000005', -60);
    const calls = qbo.tokenCalls;
    const deps = { pool: t.db.pool, cipher: t.services.cipher };
    const handler = quickbooksConnector.objects.tax_agency?.handler;
    if (handler === undefined) throw new Error('no tax_agency reader');
    const pages = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const ctx = connectorContext({
          connector: quickbooksConnector,
          connectionId: c.connection.id,
          credentials: {},
          environment: 'sandbox',
          db: t.db.pool,
          ...(await jobTokens(deps, c.connection, quickbooksConnector)),
        });
        return handler.read(ctx, { since: null, window: null, pageToken: null });
      }),
    );
    expect(qbo.tokenCalls - calls).toBe(1);
    expect(pages.map((p) => p.records.map((r) => r.raw.DisplayName))).toEqual(
      Array.from({ length: 20 }, () => ['Arizona Dept. of Revenue', 'Board of Equalization']),
    );
    expect(qbo.log.filter((r) => r.path.includes('/9130350000000005/') && r.status !== 200)).toEqual([]);
    expectNoViolations();
  });
});

describe('QuickBooks Online attachment files', () => {
  const realm = '9130350000000006';
  const attachableId = '5000000000000010341';
  let c: Linked;
  let fileUrl = '';

  // Files on the sample deposit (148) and transfer (150), as Attachables link them (AttachableRef EntityRef Deposit, Transfer).
  const bankFiles = [
    ['bank_deposit', '9700', 'Deposit', '148'],
    ['bank_transfer', '9701', 'Transfer', '150'],
  ] as const;

  beforeAll(async () => {
    qbo.addCompany({ realmId: realm, name: 'Attachments Company' });
    for (const [, id, entity, parent] of bankFiles) {
      qbo.company(realm).replace('Attachable', {
        Id: id,
        FileName: `${entity.toLowerCase()}-slip.pdf`,
        FileAccessUri: `/v3/company/${realm}/download/${id}`,
        Size: 1200,
        ContentType: 'application/pdf',
        AttachableRef: [{ EntityRef: { type: entity, value: parent }, IncludeOnSend: false }],
      });
    }
    c = await link(realm);
    await expectSynced(t, c.connection.id, 'initial');
  }, 60_000);

  const follow = async (address: string) => {
    const file = new URL(address);
    return t.app.inject({ method: 'GET', url: `${file.pathname}${file.search}` });
  };
  const downloads = () => qbo.log.filter((r) => r.path === `/v3/company/${realm}/download/${attachableId}`);
  const links = () => qbo.log.filter((r) => r.path.startsWith(`/attachments/${realm}/`));

  it('serves the file of a synced attachment byte for byte, fetched from QuickBooks when its file_url is followed', async () => {
    const listed = await sender(t, c.token)('GET', '/accounting/bills/attachments');
    expect(listed.statusCode, listed.body).toBe(200);
    const attachment = (json(listed).attachments as Json[]).find((a) => a.platform_id === attachableId);
    expect(attachment).toMatchObject({ file_name: 'receipt_nov15.jpg', attached_to_type: 'bill', attached_to_id: ref(c, 'bill', '25') });
    fileUrl = String(attachment?.file_url);
    expect(new URL(fileUrl).pathname).toBe(`/files/${String(attachment?.id)}`);

    const expected = qbo.company(realm).file(attachableId)?.content;
    expect(expected?.length).toBe(1594261);
    const response = await follow(fileUrl);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['content-disposition']).toBe('attachment; filename="receipt_nov15.jpg"');
    expect(response.rawPayload.length).toBe(1594261);
    expect(expected !== undefined && response.rawPayload.equals(expected)).toBe(true);
    // QBO's download call with the bearer token and minor version, then the presigned link without it (the stand-in records a bearer sent there).
    expect(downloads().map((r) => [r.status, r.query])).toEqual([[200, 'minorversion=75']]);
    expect(links().map((r) => r.status)).toEqual([200]);
    expectNoViolations();
  });

  it("serves it under its bill too, and its file by the bill's download path; expenses' attachments are read too", async () => {
    const send = sender(t, c.token);
    const bill = ref(c, 'bill', '25');
    const ofBill = json(await send('GET', `/accounting/bills/${bill}/attachments`)).attachments as Json[];
    const attachment = ofBill.find((a) => a.platform_id === attachableId);
    expect(attachment).toMatchObject({ attached_to_type: 'bill', attached_to_id: bill });
    expect((json(await send('GET', '/accounting/bills/attachments')).attachments as Json[]).map((a) => a.id)).toContain(attachment?.id);
    const file = await send('GET', `/accounting/bills/${bill}/attachments/${String(attachment?.id)}/file`);
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(file.rawPayload.equals(qbo.company(realm).file(attachableId)?.content ?? Buffer.alloc(0))).toBe(true);
    // Purchases are read as expenses, so their attachments are served (none of the recorded attachables is a Purchase's).
    const expenses = await send('GET', '/accounting/expenses/attachments');
    expect([expenses.statusCode, json(expenses).attachments]).toEqual([200, []]);
    expectNoViolations();
  });

  it.each(bankFiles)('serves the files of a %s under its own paths; uploads to it are not supported', async (type, id, _entity, parent) => {
    const send = sender(t, c.token);
    const plural = type === 'bank_deposit' ? 'bank_deposits' : 'bank_transfers';
    const document = ref(c, type, parent);
    const ofDocument = json(await send('GET', `/accounting/${plural}/${document}/attachments`)).attachments as Json[];
    expect(ofDocument.map((a) => [a.platform_id, a.attached_to_type, a.attached_to_id])).toEqual([[id, type, document]]);
    const attachmentId = String(ofDocument[0]?.id);
    const listed = json(await send('GET', `/accounting/${plural}/attachments`)).attachments as Json[];
    expect(listed.map((a) => a.id)).toEqual([attachmentId]);
    expect((json(await send('GET', `/accounting/${plural}/attachments/${attachmentId}`)).attachment as Json).platform_id).toBe(id);
    // A bill's attachment is no deposit's or transfer's.
    const bills = json(await send('GET', '/accounting/bills/attachments')).attachments as Json[];
    const billAttachment = await send('GET', `/accounting/${plural}/attachments/${String(bills[0]?.id)}`);
    expect(billAttachment.statusCode).toBe(410);
    const file = await send('GET', `/accounting/${plural}/${document}/attachments/${attachmentId}/file`);
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(file.rawPayload.equals(qbo.company(realm).file(id)?.content ?? Buffer.alloc(0))).toBe(true);
    const body = multipart([{ name: 'file', value: 'x', filename: 'x.txt' }]);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/${plural}/${document}/attachments?access_token=${c.token}`,
      headers: { ...clientHeaders(t.org), 'content-type': body.contentType },
      payload: body.payload,
    });
    expect([upload.statusCode, errorBody(upload).error_code]).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    expectNoViolations();
  });

  it('refreshes an access token that expired before the download, once, and serves the file', async () => {
    qbo.expireAccessTokens();
    const calls = qbo.tokenCalls;
    const before = downloads().length;
    const response = await follow(fileUrl);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.rawPayload.equals(qbo.company(realm).file(attachableId)?.content ?? Buffer.alloc(0))).toBe(true);
    expect(qbo.tokenCalls - calls).toBe(1);
    expect(
      downloads()
        .slice(before)
        .map((r) => r.status),
    ).toEqual([401, 200]);
    expect((await storedTokens(t, c.connection.id))?.tenantId).toBe(realm);
    expectNoViolations();
  });

  it("answers QuickBooks' Object Not Found when the attachable was deleted there since the sync", async () => {
    qbo.company(realm).remove('Attachable', attachableId);
    const before = links().length;
    const response = await follow(fileUrl);
    expect(response.statusCode).toBe(450);
    expect(errorBody(response)).toMatchObject({ error_code: 'PLATFORM_BAD_REQUEST', error_metadata: { platform: { code: '610', status: 400 } } });
    expect(links().length).toBe(before);
    expectNoViolations();
  });
});
