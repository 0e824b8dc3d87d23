import { describe, expect, it } from 'vitest';
import { upgradeStored } from './stored-shape.ts';

describe('objects stored before their model gained a field', () => {
  it('serve a vendor without website as null and its first subsidiary as primary', () => {
    const stored = {
      vendor_name: 'Acme',
      subsidiaries: [
        { id: 's1', status: 'active' },
        { id: 's2', status: 'active' },
      ],
    };
    expect(upgradeStored('vendor', stored)).toEqual({
      vendor_name: 'Acme',
      website: null,
      display_name: 'Acme',
      bank_account_number: null,
      currency_codes: [],
      subsidiaries: [
        { id: 's1', status: 'active', primary: true },
        { id: 's2', status: 'active', primary: false },
      ],
    });
  });

  it('leave what a vendor stored with the new fields holds', () => {
    const stored = {
      website: 'https://acme.example',
      display_name: 'Acme Ltd',
      bank_account_number: '12-3456-7890123-00',
      currency_codes: ['NZD'],
      subsidiaries: [
        { id: 's1', status: 'active', primary: false },
        { id: 's2', status: null, primary: true },
      ],
    };
    expect(upgradeStored('vendor', stored)).toEqual(stored);
    expect(upgradeStored('vendor', { subsidiaries: null })).toEqual({
      subsidiaries: null,
      website: null,
      display_name: null,
      bank_account_number: null,
      currency_codes: [],
    });
  });

  it('serve a vendor stored before issue 35 with its name as display name and its currency as its currencies', () => {
    expect(upgradeStored('vendor', { vendor_name: 'Acme', currency_code: 'EUR', subsidiaries: null })).toMatchObject({
      display_name: 'Acme',
      bank_account_number: null,
      currency_codes: ['EUR'],
    });
    // A display name stored as null stays null rather than taking the vendor name.
    expect(upgradeStored('vendor', { vendor_name: 'Acme', display_name: null })).toMatchObject({ display_name: null });
  });

  it('serve customers, departments and subsidiaries stored before issue 35 with its fields', () => {
    expect(upgradeStored('customer', { customer_name: 'Bo' })).toEqual({ customer_name: 'Bo', first_name: null, last_name: null });
    expect(upgradeStored('customer', { first_name: 'Bo', last_name: 'Li' })).toEqual({ first_name: 'Bo', last_name: 'Li' });
    expect(upgradeStored('department', { name: 'Sales' })).toEqual({ name: 'Sales', platform_url: null });
    expect(upgradeStored('subsidiary', { name: 'EU' })).toEqual({ name: 'EU', elimination: false });
    expect(upgradeStored('subsidiary', { elimination: true })).toEqual({ elimination: true });
  });

  it('give payment terms the reference names of their fields', () => {
    expect(upgradeStored('payment_term', { name: 'Net 30', discount_percentage: 2 })).toMatchObject({ term_name: 'Net 30', discount_percent: 2 });
    expect(upgradeStored('payment_term', { name: null, discount_percentage: null })).toMatchObject({ term_name: '', discount_percent: null });
  });

  it("sum a purchase order's item quantities, null without item lines", () => {
    const line = (quantity: number | null) => ({ total_amount: 1, item: quantity === null ? null : { id: 'i', quantity, unit_amount: 1 } });
    expect(upgradeStored('purchase_order', { line_items: [line(0.1), line(0.2), line(null)] })).toMatchObject({ total_quantity: 0.3 });
    expect(upgradeStored('purchase_order', { line_items: [line(null)] })).toMatchObject({ total_quantity: null });
    expect(upgradeStored('purchase_order', { line_items: [line(3)], total_quantity: 5 })).toMatchObject({ total_quantity: 5 });
  });

  it("turn an expense's stored decimal-text rate into a number", () => {
    expect(upgradeStored('expense', { currency_rate: '1.2345' })).toEqual({ currency_rate: 1.2345 });
    expect(upgradeStored('expense', { currency_rate: null })).toEqual({ currency_rate: null });
  });

  it("give an order's fulfillments, lines, refund lines and customer the fields added in issue 35, unknown until the next sync", () => {
    const line = { id: 'L1', quantity: 2 };
    const stored = {
      line_items: [line],
      fulfillments: [{ order_id: 'o', line_items: [line] }],
      refunds: [{ line_items: [{ line_item_id: 'L1', quantity: 1 }] }],
      customer: { id: 'c' },
    };
    const dated = { ...line, created_at: null, updated_at: null };
    expect(upgradeStored('order', stored)).toEqual({
      line_items: [dated],
      fulfillments: [{ id: null, order_id: 'o', line_items: [dated] }],
      refunds: [{ line_items: [{ line_item_id: 'L1', quantity: 1, status: null }] }],
      customer: { id: 'c', created_at: null, updated_at: null },
    });
    const current = {
      line_items: [{ ...line, created_at: 'a', updated_at: 'b' }],
      fulfillments: [{ id: 'F1', order_id: 'o', line_items: [] }],
      refunds: [{ line_items: [{ line_item_id: 'L1', quantity: 1, status: 'completed' }] }],
      customer: null,
    };
    expect(upgradeStored('order', current)).toEqual(current);
  });

  it("give an invoice the reference's discount_amount, payment kinds and line types", () => {
    const stored = {
      total_discount: 5,
      linked_payments: [{ id: 'p1', allocated_date: '2024-01-02T00:00:00.000Z', allocated_amount: 10 }],
      line_items: [{ total_amount: 10, item: null }],
    };
    expect(upgradeStored('invoice', stored)).toEqual({
      total_discount: 5,
      discount_amount: 5,
      linked_payments: [{ id: 'p1', allocated_date: '2024-01-02T00:00:00.000Z', allocated_amount: 10, type: 'INVOICE_PAYMENT' }],
      line_items: [{ total_amount: 10, item: null, type: null }],
    });
    expect(upgradeStored('invoice', { total_discount: null })).toMatchObject({ discount_amount: null });
    const current = { discount_amount: 1, total_discount: 1, linked_payments: [], line_items: [{ total_amount: 4, type: 'shipping' }] };
    expect(upgradeStored('invoice', current)).toEqual(current);
  });

  it("give a credit memo's lines the flat item fields from their item and total", () => {
    const itemLine = { total_amount: 7.5, item: { id: 'i1', quantity: 3, unit_amount: 2.5 } };
    const accountLine = { total_amount: -1, item: null };
    // Stored without allocations either: allocated_at is null (its own test below).
    expect(upgradeStored('invoice_credit_memo', { line_items: [itemLine, accountLine] })).toEqual({
      allocated_at: null,
      line_items: [
        { ...itemLine, id: null, item_id: 'i1', quantity: 3, unit_amount: 2.5, amount: 7.5 },
        { ...accountLine, id: null, item_id: null, quantity: null, unit_amount: null, amount: -1 },
      ],
    });
    const current = {
      allocated_at: null,
      line_items: [{ ...accountLine, id: null, item_id: null, quantity: null, unit_amount: null, amount: -1 }],
    };
    expect(upgradeStored('invoice_credit_memo', current)).toEqual(current);
  });

  it("serve an invoice payment with the reference's names filled from ours and its rate as a number", () => {
    const allocation = { id: 'i1', allocated_date: '2024-03-01T00:00:00.000Z', allocated_amount: 40 };
    expect(
      upgradeStored('invoice_payment', { transaction_date: '2024-03-01T00:00:00.000Z', currency_rate: '1.1', linked_invoices: [allocation] }),
    ).toEqual({
      transaction_date: '2024-03-01T00:00:00.000Z',
      txn_date: '2024-03-01T00:00:00.000Z',
      currency_rate: 1.1,
      payment_method_id: null,
      deposited: null,
      linked_invoices: [{ ...allocation, allocated_at: '2024-03-01T00:00:00.000Z', amount: 40 }],
    });
    const current = { transaction_date: 'a', txn_date: 'a', currency_rate: 2, payment_method_id: null, deposited: true, linked_invoices: [] };
    expect(upgradeStored('invoice_payment', current)).toEqual(current);
  });

  it("serve an invoice credit memo with allocated_at, its latest allocation's date or null", () => {
    const entry = (date: string) => ({ id: 'i', allocated_date: date, allocated_amount: 1 });
    const linked = [entry('2024-02-01T00:00:00.000Z'), entry('2024-05-01T00:00:00.000Z'), entry('2024-03-01T00:00:00.000Z')];
    expect(upgradeStored('invoice_credit_memo', { linked_invoices: linked })).toMatchObject({ allocated_at: '2024-05-01T00:00:00.000Z' });
    expect(upgradeStored('invoice_credit_memo', { linked_invoices: [] })).toMatchObject({ allocated_at: null });
    expect(upgradeStored('invoice_credit_memo', { linked_invoices: linked, allocated_at: null })).toMatchObject({ allocated_at: null });
  });

  it('leave other objects as stored', () => {
    const bill = { total_amount: 5 };
    expect(upgradeStored('bill', bill)).toBe(bill);
  });
});
