/** QBO records as recorded from Intuit's reference (test/fixtures/quickbooks) → unified objects, value by value. */
import { describe, expect, it } from 'vitest';
import { fixture, recordedRecords, type Entity, type Json } from '../../../../test/standins/quickbooks/fixtures.ts';
import { monthlyReport } from '../../../../test/standins/quickbooks/report.ts';
import { parseEntity } from '../contract.ts';
import { ENTITIES } from '../objects.ts';
import { mapBalanceSheet, mapCashFlow, mapIncomeStatement, parseReport, splitReport } from './reports.ts';
import { exchangeRateId } from '../currencies.ts';
import { mapCurrency, mapExchangeRate } from './currencies.ts';
import { mapCompany } from './master.ts';
import type { MapContext } from './common.ts';

/** Links as readable "type:id" strings instead of hashed service ids. */
const mc: MapContext = {
  ref: (type, id) => (id === null || id === undefined || id === '' ? null : `${type}:${String(id)}`),
  environment: 'sandbox',
  homeCurrency: null,
};

function record(name: Entity, id: string): Json {
  const found = recordedRecords(name).find((r) => r.Id === id);
  if (found === undefined) throw new Error(`no recorded ${name} ${id}`);
  return found;
}

function mapped(name: Entity, id: string): Record<string, unknown> {
  const spec = ENTITIES.find((e) => e.entity === name);
  if (spec === undefined) throw new Error(`no spec for ${name}`);
  return spec.map(record(name, id), mc);
}

/**
 * An invoice of one bundle (a Group item) as QuickBooks answers it: the group line carries GroupLineDetail with its
 * component lines, then the sub-total line; and, as in a company without multicurrency, no CurrencyRef. Shapes from
 * Intuit's Invoice reference (GroupLineDetail: GroupItemRef, Quantity, Line) as open-source clients record them.
 */
const BUNDLE_INVOICE: Json = {
  Id: '1042',
  SyncToken: '0',
  DocNumber: '1042',
  TxnDate: '2026-03-02',
  DueDate: '2026-04-01',
  TotalAmt: 10.61,
  Balance: 10.61,
  CustomerRef: { value: '3', name: 'Cool Cars' },
  MetaData: { CreateTime: '2026-03-02T10:00:00-08:00', LastUpdatedTime: '2026-03-02T10:00:00-08:00' },
  Line: [
    {
      Id: '1',
      LineNum: 1,
      Amount: 10.61,
      DetailType: 'GroupLineDetail',
      GroupLineDetail: {
        GroupItemRef: { value: '19', name: 'Fountain kit' },
        Quantity: 1,
        Line: [
          {
            Id: '2',
            LineNum: 2,
            Description: 'Rock Fountain',
            Amount: 6.11,
            DetailType: 'SalesItemLineDetail',
            SalesItemLineDetail: {
              ItemRef: { value: '5', name: 'Rock Fountain' },
              UnitPrice: 6.11,
              Qty: 1,
              ItemAccountRef: { value: '79', name: 'Sales of Product Income' },
              TaxCodeRef: { value: 'NON' },
            },
          },
          {
            Id: '3',
            LineNum: 3,
            Description: 'Pump',
            Amount: 4.5,
            DetailType: 'SalesItemLineDetail',
            SalesItemLineDetail: {
              ItemRef: { value: '11', name: 'Pump' },
              UnitPrice: 4.5,
              Qty: 1,
              ItemAccountRef: { value: '79', name: 'Sales of Product Income' },
              TaxCodeRef: { value: 'NON' },
            },
          },
        ],
      },
    },
    { Amount: 10.61, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} },
  ],
};

describe('QuickBooks Online mapping', () => {
  it("maps a bundle's component lines as the invoice's lines, and a transaction without CurrencyRef in the home currency", () => {
    const spec = ENTITIES.find((e) => e.entity === 'Invoice');
    if (spec === undefined) throw new Error('no invoice spec');
    const invoice = spec.map(BUNDLE_INVOICE, { ...mc, homeCurrency: 'CAD' });
    expect(invoice).toMatchObject({ sub_total: 10.61, total_amount: 10.61, amount_due: 10.61, currency_code: 'CAD' });
    expect((invoice.line_items as Json[]).map((l) => [l.platform_id, l.total_amount, (l.item as Json).id])).toEqual([
      ['2', 6.11, 'item:5'],
      ['3', 4.5, 'item:11'],
    ]);
    // Before the company's home currency is known the currency is XXX, never a guess.
    expect(spec.map(BUNDLE_INVOICE, mc).currency_code).toBe('XXX');
  });

  it('maps accounts: type, category, parent, status, balance, number', () => {
    expect(mapped('Account', '35')).toMatchObject({
      platform_id: '35',
      account_type: 'bank',
      category: 'asset',
      status: 'active',
      balance: 1350.55,
      currency_code: 'USD',
      name: 'Checking',
      nominal_code: '1001',
      parent_id: null,
      subsidiaries: [],
      created_at: '2014-09-12T17:12:02.000Z',
      updated_at: '2015-07-14T20:15:36.000Z',
    });
    expect(mapped('Account', '64')).toMatchObject({
      account_type: 'expense',
      category: 'expense',
      parent_id: 'account:63',
      name: 'Decks and Patios',
    });
    expect(mapped('Account', '33')).toMatchObject({ account_type: 'accounts_payable', category: 'liability' });
    expect(mapped('Account', '79')).toMatchObject({ account_type: 'income', category: 'income' });
    expect(mapped('Account', '80')).toMatchObject({ account_type: 'cost_of_goods_sold' });
    expect(mapped('Account', '91')).toMatchObject({ status: 'inactive', updated_at: '2015-02-10T17:30:00.000Z' });
  });

  it('maps vendors and customers: names, contact, addresses, terms, parent, archived', () => {
    expect(mapped('Vendor', '30')).toMatchObject({
      vendor_name: 'Books by Bessie',
      contact_name: 'Bessie Williams',
      email: 'Books@Intuit.com',
      phone: '(650) 555-7745',
      status: 'active',
      addresses: [
        {
          type: 'billing',
          address1: '15 Main St.',
          address2: null,
          address3: null,
          city: 'Palo Alto',
          region: 'CA',
          postal_code: '94303',
          country: null,
        },
      ],
      platform_url: 'https://app.sandbox.qbo.intuit.com/app/vendordetail?nameId=30',
    });
    expect(mapped('Vendor', '46')).toMatchObject({ payment_terms_id: 'payment_term:3', tax_number: 'XXXXXX1111', contact_name: null });
    expect(mapped('Vendor', '42')).toMatchObject({ status: 'archived' });
    const amy = mapped('Customer', '1');
    expect(amy).toMatchObject({
      customer_name: "Amy's Bird Sanctuary",
      contact_name: 'Amy Lauterbach',
      payment_terms_id: 'payment_term:3',
      parent_id: null,
      currency_code: 'USD',
    });
    expect((amy.addresses as { type: string }[]).map((a) => a.type)).toEqual(['billing', 'shipping']);
    expect(mapped('Customer', '10')).toMatchObject({ customer_name: '0969 Ocean View Road', parent_id: 'customer:9' });
    expect(mapped('Customer', '17')).toMatchObject({ status: 'archived', email: null, phone: null });
  });

  it("maps the reference's vendor and customer fields: display name, currencies, an Australian vendor's bank account, person names", () => {
    expect(mapped('Vendor', '30')).toMatchObject({ display_name: 'Books by Bessie', currency_codes: ['USD'], bank_account_number: null });
    const spec = ENTITIES.find((e) => e.entity === 'Vendor');
    if (spec === undefined) throw new Error('no vendor spec');
    const australian = { ...record('Vendor', '46'), VendorPaymentBankDetail: { BankAccountNumber: '123456789', BankAccountName: 'Norton Lumber' } };
    expect(spec.map(australian, mc)).toMatchObject({ bank_account_number: '123456789' });
    expect(mapped('Customer', '1')).toMatchObject({ first_name: 'Amy', last_name: 'Lauterbach' });
    expect(mapped('Customer', '10')).toMatchObject({ first_name: 'Sasha', last_name: 'Tillou' });
    expect(mapped('Department', '3')).toMatchObject({ platform_url: null });
    expect(mapped('Class', '5000000000000007281')).not.toHaveProperty('platform_url');
  });

  it('maps bills: status from Balance, lines with class, customer, department and item', () => {
    expect(mapped('Bill', '25')).toMatchObject({
      vendor_id: 'vendor:46',
      account_id: 'account:33',
      payment_terms_id: 'payment_term:3',
      status: 'paid',
      amount_due: 0,
      total_amount: 103.55,
      issue_date: '2014-11-06T00:00:00.000Z',
      due_date: '2014-12-06T00:00:00.000Z',
      currency_code: 'USD',
      linked_payments: [],
      platform_url: 'https://app.sandbox.qbo.intuit.com/app/bill?txnId=25',
    });
    expect(mapped('Bill', '108')).toMatchObject({ status: 'open', amount_due: 200, document_number: '56-2015-07', memo: 'Team lunch' });
    const bill = mapped('Bill', '126');
    expect(bill).toMatchObject({ status: 'partially_paid', amount_due: 100, total_amount: 250, sub_total: 250, tax_amount: null });
    expect(bill.line_items).toEqual([
      {
        platform_id: '1',
        account_id: 'account:7',
        class_id: 'class:5000000000000007280',
        customer_id: 'customer:3',
        department_id: 'department:1',
        location_id: null,
        project_id: null,
        tax_rate_id: null,
        description: 'Brochure copy',
        discount_amount: null,
        discount_percentage: null,
        sub_total: 175,
        tax_amount: null,
        total_amount: 175,
        item: null,
      },
      {
        platform_id: '2',
        account_id: null,
        class_id: null,
        customer_id: null,
        department_id: 'department:1',
        location_id: null,
        project_id: null,
        tax_rate_id: null,
        description: 'Fountain Pump',
        discount_amount: null,
        discount_percentage: null,
        sub_total: 75,
        tax_amount: null,
        total_amount: 75,
        item: { id: 'item:11', quantity: 3, unit_amount: 25 },
      },
    ]);
  });

  it("maps purchases as expenses: the account paid from, payment type, the vendor payee, a card credit as a refund, the bill's lines", () => {
    expect(mapped('Purchase', '252')).toMatchObject({
      platform_id: '252',
      account_id: 'account:35',
      vendor_id: null,
      payment_type: 'cash',
      expense_type: 'expense',
      transaction_date: '2015-07-27T00:00:00.000Z',
      currency_code: 'USD',
      currency_rate: null,
      document_number: null,
      memo: null,
      sub_total: 10,
      tax_amount: null,
      total_amount: 10,
      platform_url: 'https://app.sandbox.qbo.intuit.com/app/expense?txnId=252',
    });
    const card = mapped('Purchase', '253');
    expect(card).toMatchObject({
      account_id: 'account:41',
      vendor_id: 'vendor:46',
      payment_type: 'credit_card',
      document_number: 'CC-4412',
      memo: 'Lumber for the Finch deck',
      sub_total: 103.55,
      tax_amount: 10,
      total_amount: 113.55,
    });
    expect(card.line_items).toEqual([
      expect.objectContaining({
        account_id: 'account:64',
        customer_id: 'customer:1',
        department_id: 'department:1',
        sub_total: 100,
        tax_amount: 10,
        total_amount: 110,
        item: null,
      }),
      expect.objectContaining({ account_id: null, description: 'Screws', sub_total: 3.55, item: { id: 'item:3', quantity: 1, unit_amount: 3.55 } }),
    ]);
    expect(mapped('Purchase', '254')).toMatchObject({ expense_type: 'refund', payment_type: 'credit_card', total_amount: 25 });
    // Paid to a customer: the model's expense names only a vendor.
    expect(mapped('Purchase', '255')).toMatchObject({ vendor_id: null, payment_type: 'check', document_number: '1012' });
  });

  it('maps bill payments: bank or card account, allocations, void', () => {
    expect(mapped('BillPayment', '118')).toMatchObject({
      account_id: 'account:35',
      vendor_id: 'vendor:46',
      reference: '1003',
      document_number: '1003',
      status: 'active',
      total_amount: 103.55,
      linked_bills: [{ id: 'bill:25', allocated_date: '2014-11-06T00:00:00.000Z', allocated_amount: 103.55 }],
      linked_credit_memos: [],
    });
    expect(mapped('BillPayment', '130')).toMatchObject({
      account_id: 'account:41',
      reference: null,
      memo: 'Acct. 1JK90',
      linked_bills: [{ id: 'bill:126', allocated_amount: 150 }],
    });
    expect(mapped('BillPayment', '131')).toMatchObject({ status: 'void', total_amount: 0, linked_bills: [] });
  });

  it('maps vendor credits, deposits, transfers and journal entries', () => {
    expect(mapped('VendorCredit', '157')).toMatchObject({
      vendor_id: 'vendor:30',
      account_id: 'account:33',
      document_number: 'VC-1',
      remaining_amount: 90,
      status: 'open',
      total_amount: 90,
      memo: 'Returned catalogues',
    });
    expect(mapped('Deposit', '148')).toMatchObject({
      account_id: 'account:35',
      total_amount: 1200,
      memo: 'Weekly deposit',
      transaction_date: '2014-11-10T00:00:00.000Z',
      linked_payments: [{ id: 'invoice_payment:120', payment_amount: 868.15, type: 'invoice_payment' }],
      line_items: [
        {
          platform_id: '2',
          account_id: 'account:79',
          class_id: 'class:5000000000000007281',
          customer_id: 'customer:3',
          vendor_id: null,
          total_amount: 331.85,
          description: 'Cash sale',
        },
      ],
    });
    expect(mapped('Transfer', '150')).toMatchObject({
      credit_account_id: 'account:35',
      debit_account_id: 'account:36',
      total_amount: 500,
      memo: 'Monthly savings',
    });
    const journal = mapped('JournalEntry', '228');
    expect(journal).toMatchObject({
      memo: 'Reclassify advertising',
      currency_code: 'USD',
      deposited: null,
      transaction_date: '2015-07-01T00:00:00.000Z',
    });
    expect(journal.line_items).toEqual([
      { account_id: 'account:7', tax_rate_id: null, total_amount: 120, description: 'Print ads' },
      { account_id: 'account:35', tax_rate_id: null, total_amount: -120, description: null },
    ]);
    expect('currency_rate' in journal).toBe(false);
  });

  it('maps tax rates, agencies, departments, classes, items and terms', () => {
    expect(mapped('TaxRate', '3')).toMatchObject({
      name: 'California',
      status: 'active',
      effective_tax_rate: 8,
      total_tax_rate: 8,
      code: null,
      components: [],
    });
    expect(mapped('TaxRate', '4')).toMatchObject({ status: 'inactive' });
    expect(mapped('TaxAgency', '2')).toMatchObject({ name: 'Board of Equalization' });
    // Active and Type stay in platform_data: the reference's payment method has a name and dates only.
    expect(mapped('PaymentMethod', '8')).toEqual({
      platform_id: '8',
      name: 'Gift Card',
      created_at: '2014-09-11T21:42:05.000Z',
      updated_at: '2015-03-02T17:15:00.000Z',
    });
    expect(mapped('Department', '3')).toMatchObject({ name: 'Inside Sales', parent_id: 'department:2', status: 'archived', has_children: null });
    expect(mapped('Class', '5000000000000007281')).toMatchObject({ name: 'Paris', parent_id: 'class:5000000000000007280', status: 'active' });
    expect(mapped('Item', '11')).toMatchObject({
      name: 'Pump',
      code: 'P461-17',
      type: 'inventory',
      quantity_on_hand: 25,
      asset_account_id: 'account:81',
      bill_item: { unit_price: 10, account_id: 'account:80', tax_rate_id: null, description: 'Fountain Pump' },
      invoice_item: { unit_price: 15, account_id: 'account:79', tax_rate_id: null, description: 'Fountain Pump' },
    });
    expect(mapped('Item', '3')).toMatchObject({ type: 'service', quantity_on_hand: null, bill_item: { unit_price: 0, account_id: null } });
    expect(mapped('Term', '4')).toMatchObject({ name: '1% 10 Net 30', due_days: 30, discount_days: 10, discount_percentage: 1, status: 'active' });
    expect(mapped('Term', '5')).toMatchObject({ status: 'archived', due_days: null });
  });

  it('maps employees: names, number, hire and release dates; released is terminated, inactive without a release is inactive', () => {
    expect(mapped('Employee', '54')).toEqual({
      platform_id: '54',
      department_id: null,
      manager_id: null,
      hire_date: '2014-09-01T00:00:00.000Z',
      termination_date: null,
      first_name: 'John',
      last_name: 'Johnson',
      status: 'active',
      custom_fields: {},
      employee_number: 'E-101',
      position: null,
      salary: null,
      created_at: '2014-09-17T18:21:48.000Z',
      updated_at: '2014-09-17T18:21:48.000Z',
    });
    expect(mapped('Employee', '71')).toMatchObject({
      first_name: 'Bill',
      last_name: 'Miller',
      hire_date: null,
      employee_number: null,
      status: 'active',
    });
    expect(mapped('Employee', '72')).toMatchObject({
      status: 'terminated',
      hire_date: '2015-01-05T00:00:00.000Z',
      termination_date: '2015-06-30T00:00:00.000Z',
    });
    expect(mapped('Employee', '73')).toMatchObject({ status: 'inactive', termination_date: null });
    expect(ENTITIES.find((e) => e.entity === 'Employee')?.cdc).toBe(true);
  });

  it('maps currencies: a CompanyCurrency by its code and name, the home currency from Preferences without a name', () => {
    expect(mapCurrency(record('CompanyCurrency', '5'))).toEqual({
      currency_code: 'JPY',
      currency_name: 'Japanese Yen',
      created_at: '2015-06-19T16:20:44.000Z',
      updated_at: '2015-06-19T16:20:44.000Z',
    });
    const preferences = fixture('preferences.json').Preferences as Json;
    expect(
      mapCurrency({
        CurrencyPrefs: preferences.CurrencyPrefs as { HomeCurrency?: { value: string } },
        MetaData: preferences.MetaData as { LastUpdatedTime?: string },
      }),
    ).toEqual({
      currency_code: 'USD',
      currency_name: null,
      created_at: null,
      updated_at: '2015-07-06T15:51:50.000Z',
    });
  });

  it('maps exchange rates: source and target currency, the rate as QBO gives it, the date it applies from', () => {
    const [inr] = recordedRecords('ExchangeRate');
    expect(inr).toBeDefined();
    expect(mapExchangeRate(inr ?? {})).toEqual({
      source_currency_code: 'INR',
      target_currency_code: 'USD',
      rate: 5,
      as_of_date: '2015-05-15T00:00:00.000Z',
      created_at: null,
      updated_at: '2015-07-07T19:38:40.000Z',
    });
    expect(exchangeRateId(inr ?? {})).toBe('INR-USD-2015-05-15');
  });

  it('maps file attachables to their record and leaves note-only ones out', () => {
    const spec = ENTITIES.find((e) => e.entity === 'Attachable');
    expect(spec?.keep?.(record('Attachable', '200900000000000008541'))).toBe(false);
    expect(spec?.keep?.(record('Attachable', '5000000000000010341'))).toBe(true);
    expect(mapped('Attachable', '5000000000000010341')).toEqual({
      platform_id: '5000000000000010341',
      attached_to_id: 'bill:25',
      attached_to_type: 'bill',
      file_name: 'receipt_nov15.jpg',
      file_url: '/v3/company/4620816365178424710/download/5000000000000010341',
      created_at: '2015-11-17T19:05:28.000Z',
    });
  });

  it('maps invoices, payments and credit memos, with discounts and voids', () => {
    expect(mapped('Invoice', '130')).toMatchObject({
      customer_id: 'customer:1',
      status: 'paid',
      amount_due: 0,
      total_amount: 868.15,
      document_number: '1036',
      total_discount: null,
    });
    const open = mapped('Invoice', '239');
    expect(open).toMatchObject({ status: 'open', amount_due: 300, sub_total: 320, total_discount: 20, discount_amount: 20, linked_payments: [] });
    expect(open.line_items).toMatchObject([
      { item: { id: 'item:11', quantity: 2, unit_amount: 160 }, class_id: 'class:5000000000000007280', total_amount: 320, type: null },
    ]);
    expect(mapped('Invoice', '237')).toMatchObject({ status: 'void', total_amount: 0, line_items: [] });
    expect(mapped('Payment', '120')).toMatchObject({
      account_id: 'account:4',
      customer_id: 'customer:1',
      reference: '1234',
      status: 'active',
      total_amount: 868.15,
      linked_invoices: [{ id: 'invoice:130', allocated_date: '2014-11-05T00:00:00.000Z', allocated_amount: 868.15 }],
    });
    const credit = mapped('CreditMemo', '73');
    expect(credit).toMatchObject({ customer_id: 'customer:3', remaining_amount: 50, status: 'open', document_number: '1026' });
    // The reference's flat fields of a credit memo line repeat its item and total.
    expect(credit.line_items).toEqual([
      expect.objectContaining({
        platform_id: '1',
        item: { id: 'item:3', quantity: 1, unit_amount: 50 },
        total_amount: 50,
        id: null,
        item_id: 'item:3',
        quantity: 1,
        unit_amount: 50,
        amount: 50,
      }),
    ]);
    // The reference's names beside ours; the payment method is its PaymentMethodRef, the deposit QBO does not name.
    const payment = mapped('Payment', '120');
    expect(payment).toMatchObject({
      txn_date: payment.transaction_date,
      payment_method_id: 'payment_method:2',
      deposited: null,
      linked_invoices: [{ allocated_at: '2014-11-05T00:00:00.000Z', amount: 868.15 }],
    });
    expect(payment.currency_rate === null || typeof payment.currency_rate === 'number').toBe(true);
    expect(mapped('CreditMemo', '73')).toMatchObject({ allocated_at: null });
  });

  it('types the sales line of the reserved item SHIPPING_ITEM_ID as shipping, and no other', () => {
    const spec = ENTITIES.find((e) => e.entity === 'Invoice');
    if (spec === undefined) throw new Error('no invoice spec');
    const shipping = {
      Id: '4',
      Amount: 12.5,
      DetailType: 'SalesItemLineDetail',
      SalesItemLineDetail: { ItemRef: { value: 'SHIPPING_ITEM_ID' }, TaxCodeRef: { value: 'NON' } },
    };
    const invoice = spec.map({ ...BUNDLE_INVOICE, Line: [...(BUNDLE_INVOICE.Line as Json[]), shipping] }, mc);
    expect((invoice.line_items as Json[]).map((l) => [l.platform_id, l.type])).toEqual([
      ['2', null],
      ['3', null],
      ['4', 'shipping'],
    ]);
  });

  it('maps sales receipts: the customer memo, the payment reference, the deposit account, tax and addresses; the deposit that took one out of Undeposited Funds', () => {
    expect(mapped('SalesReceipt', '11')).toEqual({
      platform_id: '11',
      customer_id: 'customer:6',
      account_id: 'account:35',
      issue_date: '2014-09-14T00:00:00.000Z',
      amount_due: 0,
      currency_code: null,
      discount_amount: null,
      document_number: '1003',
      memo: 'Thank you for your business and have a great day!',
      reference: '10264',
      total_amount: 337.5,
      linked_transactions: [],
      line_items: [
        {
          platform_id: '1',
          account_id: null,
          class_id: null,
          customer_id: null,
          department_id: null,
          location_id: null,
          project_id: null,
          tax_rate_id: null,
          description: 'Custom Design',
          discount_amount: null,
          discount_percentage: null,
          sub_total: 337.5,
          tax_amount: null,
          total_amount: 337.5,
          item: { id: 'item:4', quantity: 4.5, unit_amount: 75 },
        },
      ],
      additional_fields: {
        billing_email: null,
        internal_memo: null,
        shipping_amount: null,
        tax_amount: 0,
        addresses: [
          {
            type: 'billing',
            address1: 'Dylan Sollfrank',
            address2: null,
            address3: null,
            city: null,
            country: null,
            postal_code: null,
            region: null,
          },
        ],
      },
      created_at: '2014-09-16T21:59:48.000Z',
      updated_at: '2014-09-16T21:59:48.000Z',
      platform_url: 'https://app.sandbox.qbo.intuit.com/app/salesreceipt?txnId=11',
    });
    const taxed = mapped('SalesReceipt', '12');
    expect(taxed).toMatchObject({
      customer_id: 'customer:3',
      account_id: 'account:4',
      currency_code: 'USD',
      discount_amount: 20,
      total_amount: 526.24,
      reference: null,
      memo: 'Thank you for your business',
      additional_fields: { billing_email: 'Cool_Cars@intuit.com', internal_memo: 'Paid at the yard', tax_amount: 38.98 },
    });
    expect((taxed.line_items as Json[]).map((l) => [l.account_id, l.class_id, l.department_id, l.total_amount])).toEqual([
      ['account:79', 'class:5000000000000007280', 'department:1', 347.26],
      ['account:79', null, 'department:1', 160],
    ]);
    expect(((taxed.additional_fields as Json).addresses as Json[]).map((a) => a.type)).toEqual(['billing', 'shipping']);
    const deposited = {
      ...record('SalesReceipt', '12'),
      LinkedTxn: [
        { TxnId: '148', TxnType: 'Deposit' },
        { TxnId: '9', TxnType: 'ReimburseCharge' },
      ],
    };
    expect(ENTITIES.find((e) => e.entity === 'SalesReceipt')?.map(deposited, mc)).toMatchObject({
      linked_transactions: [{ id: 'bank_deposit:148', type: 'bank_deposit' }],
    });
    expect(ENTITIES.find((e) => e.entity === 'SalesReceipt')).toMatchObject({ cdc: true, dated: true });
  });

  it('maps the company with its home currency and fiscal year', () => {
    const info = fixture('companyinfo.json').CompanyInfo as Json;
    expect(mapCompany(parseEntity('CompanyInfo', { ...info, HomeCurrency: { value: 'USD' } }), mc)).toMatchObject({
      platform_id: '1',
      name: "Larry's Bakery",
      legal_name: "Larry's Bakery",
      currency_code: 'USD',
      fiscal_year_start_month: 1,
      email: 'donotreply@intuit.com',
      phone: '(650)944-4444',
      tax_number: null,
    });
  });

  it('splits a monthly BalanceSheet report into one statement per month', () => {
    const report = monthlyReport(
      fixture('balancesheet.json'),
      new URLSearchParams({ start_date: '2016-09-01', end_date: '2016-10-31', summarize_column_by: 'Month' }),
      '2016-10-31T09:42:21-07:00',
    );
    const months = splitReport(parseReport(report));
    expect(months.map((m) => [m.Id, m.StartDate, m.EndDate])).toEqual([
      ['2016-09', '2016-09-01', '2016-09-30'],
      ['2016-10', '2016-10-01', '2016-10-31'],
    ]);
    const [september] = months;
    if (september === undefined) throw new Error('no month');
    const sheet = mapBalanceSheet(september, mc);
    expect(sheet).toMatchObject({
      start_date: '2016-09-01T00:00:00.000Z',
      end_date: '2016-09-30T00:00:00.000Z',
      currency_code: 'USD',
      total_assets: '24742.44',
      total_liabilities: '31548.42',
      total_equity: '-6805.98',
    });
    expect(sheet.assets.items.map((n) => [n.name, n.value])).toEqual([
      ['Current Assets', '11247.44'],
      ['Fixed Assets', '13495.00'],
    ]);
    expect(sheet.assets.items[1]?.items[0]).toEqual({
      account_id: 'account:37',
      name: 'Truck',
      value: '13495.00',
      items: [{ account_id: 'account:38', name: 'Original Cost', value: '13495.00', items: [] }],
    });
    expect(sheet.equity.items).toEqual([
      { account_id: 'account:34', name: 'Opening Balance Equity', value: '-9337.50', items: [] },
      { account_id: 'account:2', name: 'Retained Earnings', value: '91.25', items: [] },
      { account_id: '', name: 'Net Income', value: '2440.27', items: [] },
    ]);
  });

  const october = (file: string) => {
    const report = monthlyReport(
      fixture(file),
      new URLSearchParams({ start_date: '2016-09-01', end_date: '2016-10-31', summarize_column_by: 'Month' }),
      '2016-10-31T09:42:21-07:00',
    );
    const month = splitReport(parseReport(report))[1];
    if (month === undefined) throw new Error('no month');
    return month;
  };

  it('maps a month of the ProfitAndLoss report to an income statement, amounts as numbers', () => {
    const statement = mapIncomeStatement(october('profitandloss.json'), mc);
    expect(statement).toMatchObject({
      start_date: '2016-10-01T00:00:00.000Z',
      end_date: '2016-10-31T00:00:00.000Z',
      accounting_standard: 'accrual',
      currency_code: 'USD',
      total_income: 1415.55,
      net_sales: 1415.55,
      total_cost_of_sales: 405,
      gross_profit: 1010.55,
      total_expenses: 475.88,
      net_operating_income: 534.67,
      net_income: 534.67,
      net_profit: 534.67,
      created_at: null,
      updated_at: null,
      platform_url: null,
    });
    expect(statement.income).toEqual({
      account_id: '',
      name: 'Income',
      value: 1415.55,
      items: [{ account_id: 'account:79', name: 'Sales of Product Income', value: 1415.55, items: [] }],
    });
    expect(statement.cost_of_sales.items).toEqual([{ account_id: 'account:80', name: 'Cost of Goods Sold', value: 405, items: [] }]);
    // A parent account with its own amount: the row is its total, the children what is below it.
    expect(statement.expenses.items[2]).toMatchObject({
      account_id: 'account:58',
      name: 'Job Expenses',
      value: 281.02,
      items: [{ account_id: 'account:63', value: 234.04 }],
    });
  });

  it('maps a month of the CashFlow report to a cash flow statement whose activities explain the change of cash', () => {
    const flow = mapCashFlow(october('cashflow.json'), mc);
    expect(flow).toMatchObject({
      currency_code: 'USD',
      starting_balance: -3183.48,
      ending_balance: 1350.55,
      total_operating: 2366.53,
      total_investing: -13495,
      total_financing: 15662.5,
      gross_cash_in_flow: null,
      gross_cash_out_flow: null,
    });
    expect(
      Math.round(((flow.starting_balance ?? 0) + (flow.total_operating ?? 0) + (flow.total_investing ?? 0) + (flow.total_financing ?? 0)) * 100),
    ).toBe(Math.round((flow.ending_balance ?? 0) * 100));
    expect(flow.operating_activities.items.map((n) => [n.account_id, n.name, n.value])).toEqual([
      ['', 'Net Income', 534.67],
      ['', 'Adjustments to reconcile Net Income to Net Cash provided by operations:', 1831.86],
    ]);
    expect(flow.financing_activities.items[0]).toEqual({ account_id: 'account:44', name: 'Notes Payable', value: 25000, items: [] });
  });

  it('parses a report answer rather than trusting its shape: stray values are left out', () => {
    const parsed = parseReport({
      Header: { Currency: 7, ReportBasis: 'Cash' },
      Columns: 'x',
      Rows: { Row: [{ type: 'Data', ColData: [{ value: 'A', id: 3 }, { value: 5 }] }, 'junk'] },
    });
    expect(parsed).toEqual({
      Header: { ReportBasis: 'Cash' },
      Columns: { Column: [] },
      Rows: { Row: [{ type: 'Data', ColData: [{ value: 'A' }, {}] }] },
    });
  });
});
