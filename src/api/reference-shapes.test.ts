/**
 * Shapes and bodies the spec does not show, as the reference has them (docs/reference.md), through the real server
 * against SANDBOX: the fields it reads, and the write bodies a client ported from it sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, type TestApp } from '../../test/support/app.ts';
import { storedWhere, syncedSandboxConnection, type SyncedConnection } from '../../test/support/sandbox-connection.ts';
import { line, sender, startWriteTestApp, today, type Json, type Send } from '../../test/support/writes.ts';

let t: TestApp;
let c: SyncedConnection;
let send: Send;

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_reference_size_300');
  send = sender(t, c.token);
}, 120_000);
afterAll(async () => {
  await t.close();
});

async function all(path: string, key: string, headers: Record<string, string> = {}): Promise<Json[]> {
  const response = await send('GET', `${path}?limit=500`, undefined, headers);
  expect(response.statusCode, response.body).toBe(200);
  return json(response)[key] as Json[];
}

describe("reads with the reference's fields", () => {
  it('vendors carry website and say which subsidiary is primary', async () => {
    const vendors = await all('/accounting/vendors', 'vendors');
    expect(vendors.length).toBeGreaterThan(0);
    for (const vendor of vendors) {
      expect(vendor.website).toMatch(/^https:\/\/www\.[a-z0-9]+\.example$/);
      const subsidiaries = vendor.subsidiaries as Json[];
      expect(subsidiaries.filter((s) => s.primary === true)).toHaveLength(subsidiaries.length === 0 ? 0 : 1);
      expect(subsidiaries[0]?.primary ?? true).toBe(true);
    }
  });

  it('vendors carry display_name, currency_codes and bank_account_number', async () => {
    const vendors = await all('/accounting/vendors', 'vendors');
    expect(vendors.length).toBeGreaterThan(0);
    for (const vendor of vendors) {
      expect(vendor.display_name).toBe(vendor.vendor_name);
      expect(vendor.currency_codes).toEqual([vendor.currency_code]);
      // SANDBOX keeps no bank details.
      expect(vendor.bank_account_number).toBeNull();
    }
    const one = json(await send('GET', `/accounting/vendors/${String(vendors[0]?.id)}`)).vendor as Json;
    expect([one.display_name, one.currency_codes, one.bank_account_number]).toEqual([vendors[0]?.display_name, vendors[0]?.currency_codes, null]);
  });

  it('customers carry the first and last name of the person contact_name names', async () => {
    const customers = await all('/accounting/customers', 'customers');
    expect(customers.length).toBeGreaterThan(0);
    for (const customer of customers) {
      expect(customer.first_name).toEqual(expect.any(String));
      expect(`${String(customer.first_name)} ${String(customer.last_name)}`).toBe(customer.contact_name);
      const [contact] = customer.contacts as Json[];
      expect([customer.first_name, customer.last_name]).toEqual([contact?.first_name, contact?.last_name]);
    }
  });

  it('departments carry platform_url and subsidiaries elimination', async () => {
    const departments = await all('/accounting/departments', 'departments');
    expect(departments.length).toBeGreaterThan(0);
    for (const department of departments) expect(department).toHaveProperty('platform_url', null);
    const subsidiaries = await all('/accounting/subsidiaries', 'subsidiaries');
    expect(subsidiaries.length).toBeGreaterThan(0);
    for (const subsidiary of subsidiaries) expect(subsidiary.elimination).toBe(false);
    const one = json(await send('GET', `/accounting/subsidiaries/${String(subsidiaries[0]?.id)}`)).subsidiary as Json;
    expect(one.elimination).toBe(false);
  });

  it('payment terms carry term_name and discount_percent beside our names', async () => {
    const terms = await all('/accounting/payment_terms', 'payment_terms');
    expect(terms.length).toBeGreaterThan(0);
    for (const term of terms) {
      expect(term.term_name).toBe(term.name);
      expect(term.discount_percent).toBe(term.discount_percentage);
    }
    expect(terms.some((term) => typeof term.discount_percent === 'number')).toBe(true);
  });

  it("purchase orders carry total_quantity and a status of the reference's enum", async () => {
    const orders = await all('/accounting/purchase_orders', 'purchase_orders');
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) {
      expect(['open', 'draft', 'closed', 'pending_bill', 'unknown']).toContain(order.status);
      const quantities = (order.line_items as Json[]).flatMap((l) => (l.item === null ? [] : [(l.item as Json).quantity as number]));
      if (quantities.length === 0) expect(order.total_quantity).toBeNull();
      else
        expect(order.total_quantity).toBeCloseTo(
          quantities.reduce((a, b) => a + b, 0),
          6,
        );
    }
  });

  it('expenses carry currency_rate as a number, and as text under versions before 2024-08-31', async () => {
    const stored = await storedWhere(t, c.connection.id, 'expense', () => true);
    // Every SANDBOX expense is in the home currency; a stored rate (as a store written before this version has it) shows both shapes.
    await t.db.pool.query(
      `UPDATE records SET data = jsonb_set(data, '{currency_rate}', '"1.25"') WHERE connection_id = $1 AND object_type = 'expense' AND id = $2`,
      [c.connection.id, stored.id],
    );
    const current = json(await send('GET', `/accounting/expenses/${stored.id}`)).expense as Json;
    expect(current.currency_rate).toBe(1.25);
    const older = json(await send('GET', `/accounting/expenses/${stored.id}`, undefined, { 'x-service-version': '2023-03-14' })).expense as Json;
    expect(older.currency_rate).toBe('1.25');
  });

  it('invoices carry discount_amount, the kind of each linked payment and shipping lines', async () => {
    const invoices = await all('/accounting/invoices', 'invoices');
    // SANDBOX charges shipping to Shipping Income, as its sales receipts do.
    const shippingAccount = (await all('/accounting/accounts', 'accounts')).find((a) => a.name === 'Shipping Income');
    expect(shippingAccount).toBeDefined();
    expect(invoices.length).toBeGreaterThan(0);
    for (const invoice of invoices) {
      expect(invoice.discount_amount).toBe(invoice.total_discount);
      for (const payment of invoice.linked_payments as Json[]) expect(payment.type).toBe('INVOICE_PAYMENT');
      for (const line of invoice.line_items as Json[]) expect(line.type).toBe(line.account_id === shippingAccount?.id ? 'shipping' : null);
    }
    const lines = invoices.flatMap((invoice) => invoice.line_items as Json[]);
    expect(lines.some((line) => line.type === 'shipping')).toBe(true);
    expect(invoices.some((invoice) => (invoice.linked_payments as Json[]).length > 0)).toBe(true);
  });

  it("credit memo lines repeat their item's id, quantity and unit amount flat, and their total as amount", async () => {
    const memos = await all('/accounting/invoice_credit_memos', 'invoice_credit_memos');
    const lines = memos.flatMap((memo) => memo.line_items as Json[]);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const item = line.item as Json | null;
      expect(line).toMatchObject({
        id: null,
        item_id: item?.id ?? null,
        quantity: item?.quantity ?? null,
        unit_amount: item?.unit_amount ?? null,
        amount: line.total_amount,
      });
    }
  });

  it("invoice payments carry the reference's txn_date, deposited, payment_method_id and allocation names beside ours", async () => {
    const payments = await all('/accounting/invoice_payments', 'invoice_payments');
    expect(payments.length).toBeGreaterThan(0);
    const undepositedFunds = (await all('/accounting/accounts', 'accounts')).find((a) => a.name === 'Undeposited Funds');
    expect(undepositedFunds).toBeDefined();
    for (const payment of payments) {
      expect(payment.txn_date).toBe(payment.transaction_date);
      expect(payment.payment_method_id).toBeNull();
      expect(typeof payment.currency_rate).toBe('number');
      if (payment.account_id === undepositedFunds?.id) expect(typeof payment.deposited).toBe('boolean');
      else expect(payment.deposited).toBeNull();
      for (const entry of payment.linked_invoices as Json[]) {
        expect(entry.allocated_at).toBe(entry.allocated_date);
        expect(entry.amount).toBe(entry.allocated_amount);
      }
    }
    // The generated books deposit most payments waiting in undeposited funds and leave a few there.
    expect(payments.some((p) => p.deposited === true)).toBe(true);
    expect(payments.some((p) => p.deposited === null)).toBe(true);

    const [payment] = payments;
    const older = json(await send('GET', `/accounting/invoice_payments/${String(payment?.id)}`, undefined, { 'x-service-version': '2023-03-14' }))
      .invoice_payment as Json;
    expect(older.currency_rate).toBe(String(payment?.currency_rate));
  });

  it('invoice credit memos carry allocated_at, the date of their latest allocation', async () => {
    const memos = await all('/accounting/invoice_credit_memos', 'invoice_credit_memos');
    expect(memos.length).toBeGreaterThan(0);
    for (const memo of memos) {
      const dates = (memo.linked_invoices as Json[]).map((entry) => entry.allocated_date as string).sort();
      expect(memo.allocated_at).toBe(dates.at(-1) ?? null);
    }
    // A memo stored before the field existed is served with it from its stored allocations.
    const [memo] = memos;
    const linked = [
      { id: 'a', allocated_date: '2024-02-01T00:00:00.000Z', allocated_amount: 1 },
      { id: 'b', allocated_date: '2024-04-01T00:00:00.000Z', allocated_amount: 2 },
    ];
    await t.db.pool.query(
      `UPDATE records SET data = jsonb_set(data - 'allocated_at', '{linked_invoices}', $3::jsonb) WHERE connection_id = $1 AND object_type = 'invoice_credit_memo' AND id = $2`,
      [c.connection.id, memo?.id, JSON.stringify(linked)],
    );
    const served = json(await send('GET', `/accounting/invoice_credit_memos/${String(memo?.id)}`)).invoice_credit_memo as Json;
    expect(served.allocated_at).toBe('2024-04-01T00:00:00.000Z');
  });

  it('GET /connections/access_token carries store_domain', async () => {
    const response = await send('GET', '/connections/access_token');
    expect(response.statusCode, response.body).toBe(200);
    const connection = json(response).connection as Json;
    expect(connection).toHaveProperty('store_domain', null);
  });
});

describe('write bodies of the reference', () => {
  let vendor: Json;
  let expenseAccount: string;
  let bank: string;

  beforeAll(async () => {
    vendor = await storedWhere(t, c.connection.id, 'vendor', (v) => v.status === 'active');
    expenseAccount = (await storedWhere(t, c.connection.id, 'account', (a) => a.account_type === 'expense' && a.status === 'active')).id;
    bank = (await storedWhere(t, c.connection.id, 'account', (a) => a.account_type === 'bank' && a.status === 'active')).id;
  });

  it('a vendor with website and a primary subsidiary is written and read back so', async () => {
    const subsidiaries = (await all('/accounting/subsidiaries', 'subsidiaries')).slice(0, 2);
    expect(subsidiaries).toHaveLength(2);
    const body = {
      vendor_name: `Reference Vendor ${Date.now()}`,
      website: 'https://vendor.example',
      subsidiaries: [
        { id: subsidiaries[0]?.id, primary: false },
        { id: subsidiaries[1]?.id, primary: true },
      ],
    };
    const created = await send('POST', '/accounting/vendors', { vendor: body });
    expect(created.statusCode, created.body).toBe(200);
    const written = json(created).vendor as Json;
    expect(written.website).toBe('https://vendor.example');
    expect((written.subsidiaries as Json[]).map((s) => [s.id, s.primary])).toEqual([
      [subsidiaries[1]?.id, true],
      [subsidiaries[0]?.id, false],
    ]);

    const twoPrimaries = await send('POST', '/accounting/vendors', {
      vendor: { ...body, vendor_name: `Other ${Date.now()}`, subsidiaries: body.subsidiaries.map((s) => ({ ...s, primary: true })) },
    });
    expect(twoPrimaries.statusCode).toBe(400);
    expect(errorBody(twoPrimaries).error_message).toContain('only one subsidiary can be primary');
  });

  it("an invoice item line without account_id posts to the item's income account; a line with neither is refused", async () => {
    const customer = await storedWhere(t, c.connection.id, 'customer', (v) => v.status === 'active');
    const item = await storedWhere(t, c.connection.id, 'item', (i) => i.status === 'active' && i.invoice_item !== null);
    const created = await send('POST', '/accounting/invoices', {
      invoice: {
        customer_id: customer.id,
        issue_date: today(),
        line_items: [{ total_amount: 30, item: { id: item.id, quantity: 2, unit_amount: 15 } }],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const [written] = (json(created).invoice as Json).line_items as Json[];
    expect(written).toMatchObject({ total_amount: 30, item: { id: item.id, quantity: 2, unit_amount: 15 } });
    expect(written?.account_id).toBe((item.invoice_item as Json).account_id);

    const bare = await send('POST', '/accounting/invoices', {
      invoice: { customer_id: customer.id, issue_date: today(), line_items: [{ total_amount: 30 }] },
    });
    expect(bare.statusCode).toBe(400);
    expect(errorBody(bare).error_metadata?.field).toBe('invoice.line_items[0].account_id');
  });

  it('a bill payment takes currency_rate as a number or as decimal text, not as other text', async () => {
    const bill = json(
      await send('POST', '/accounting/bills', { bill: { vendor_id: vendor.id, issue_date: today(), line_items: [line(expenseAccount, 40)] } }),
    ).bill as Json;
    const pay = (rate: unknown, amount: number) =>
      send('POST', '/accounting/bill_payments', {
        bill_payment: {
          vendor_id: vendor.id,
          account_id: bank,
          transaction_date: today(),
          currency_rate: rate,
          linked_bills: [{ id: bill.id, allocated_amount: amount }],
        },
      });
    const asNumber = await pay(1, 10);
    expect(asNumber.statusCode, asNumber.body).toBe(200);
    expect((json(asNumber).bill_payment as Json).currency_rate).toBe('1');
    const asText = await pay('1', 10);
    expect(asText.statusCode, asText.body).toBe(200);
    const bad = await pay('one', 10);
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).error_message).toContain('currency_rate');
  });

  it("a bill credit application takes the reference's vendor_id, currency_code and transaction_date, checked against the memo", async () => {
    const bill = json(
      await send('POST', '/accounting/bills', { bill: { vendor_id: vendor.id, issue_date: today(), line_items: [line(expenseAccount, 90)] } }),
    ).bill as Json;
    const memo = json(
      await send('POST', '/accounting/bill_credit_memos', {
        bill_credit_memo: { vendor_id: vendor.id, issue_date: today(), line_items: [line(expenseAccount, 30)] },
      }),
    ).bill_credit_memo as Json;
    const other = await storedWhere(t, c.connection.id, 'vendor', (v) => v.status === 'active' && v.id !== vendor.id);
    const apply = (extra: Json) =>
      send('POST', '/accounting/bill_credit_applications', {
        bill_credit_application: { bill_credit_memo_id: memo.id, linked_bills: [{ id: bill.id, allocated_amount: 10 }], ...extra },
      });
    const wrongVendor = await apply({ vendor_id: other.id });
    expect(wrongVendor.statusCode).toBe(400);
    expect(errorBody(wrongVendor).error_metadata?.field).toBe('bill_credit_application.vendor_id');
    const backdated = await apply({ vendor_id: vendor.id, transaction_date: '2020-01-31' });
    expect(backdated.statusCode).toBe(400);
    expect(errorBody(backdated).error_metadata?.field).toBe('bill_credit_application.transaction_date');
    const ported = await apply({ vendor_id: vendor.id, currency_code: memo.currency_code, transaction_date: today() });
    expect(ported.statusCode, ported.body).toBe(200);
    expect((json(ported).bill_credit_memo as Json).remaining_amount).toBe(20);
  });

  it("the spec's sample bank feed account body, with additional_fields.override_existing and the reference's country", async () => {
    const created = await send('POST', '/accounting/bank_feeds/accounts', {
      bank_feed_account: {
        account_id: null,
        contact_id: null,
        internal_bank_account_id: `ext-${Date.now()}`,
        parent_bank_feed_account_id: null,
        transaction_start_date: today(),
        bank_account_type: 'checking',
        currency_code: 'USD',
        name: 'Spec sample feed',
        available_balance: 1200.5,
        bank_account_number: '000123456789',
        current_balance: 1300.25,
        line_of_business: 'retail',
        routing_number: '110000000',
        payment_network_ids: [],
        country: 'US',
        additional_fields: { override_existing: true },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const feed = json(created).bank_feed_account as Json;
    expect(feed).toMatchObject({ name: 'Spec sample feed', bank_account_type: 'checking', current_balance: 1300.25 });
    const raw = json(await send('GET', `/accounting/bank_feeds/accounts/${String(feed.id)}?expand=platform_data`)).bank_feed_account as Json;
    expect((raw.platform_data as Json).Country).toBe('US');

    const badCountry = await send('POST', '/accounting/bank_feeds/accounts', {
      bank_feed_account: { name: 'Bad country', bank_account_type: 'bank', country: 'United States' },
    });
    expect(badCountry.statusCode).not.toBe(200);
  });

  it("bank feed transactions in the reference's names are taken; both names at once, or a sign against the type, are refused", async () => {
    const feed = await storedWhere(t, c.connection.id, 'bank_feed_account', (f) => f.transaction_ready === true);
    const post = (lines: Json[]) =>
      send('POST', '/accounting/bank_feeds/transactions', { bank_feed_transactions: { bank_feed_account_id: feed.id, transactions: lines } });
    const reference = {
      transaction_id: `ref-${Date.now()}`,
      posted_at: today(),
      amount: -42.1,
      description: 'Card payment',
      transaction_type: 'debit',
      payee: 'Coffee Co',
    };
    const taken = await post([reference]);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(json(taken).bank_feed_transactions).toMatchObject({ accepted_count: 1, duplicate_count: 0 });
    const again = await post([
      { ...reference, transaction_id: undefined, internal_transaction_id: reference.transaction_id, posted_at: undefined, transaction_date: today() },
    ]);
    expect(json(again).bank_feed_transactions).toMatchObject({ accepted_count: 0, duplicate_count: 1 });

    const both = await post([{ ...reference, internal_transaction_id: 'x' }]);
    expect(both.statusCode).toBe(400);
    expect(errorBody(both).error_metadata?.field).toBe('bank_feed_transactions.transactions[0].transaction_id');
    const wrongSign = await post([{ ...reference, transaction_id: 'y', transaction_type: 'deposit' }]);
    expect(wrongSign.statusCode).toBe(400);
    expect(errorBody(wrongSign).error_metadata?.field).toBe('bank_feed_transactions.transactions[0].transaction_type');
    const neither = await post([{ amount: 1, description: 'No id', posted_at: today() }]);
    expect(neither.statusCode).toBe(400);
    expect(errorBody(neither).error_metadata?.field).toBe('bank_feed_transactions.transactions[0].internal_transaction_id');
  });
});
