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
      subsidiaries: [
        { id: 's1', status: 'active', primary: true },
        { id: 's2', status: 'active', primary: false },
      ],
    });
  });

  it('leave what a vendor stored with the new fields holds', () => {
    const stored = {
      website: 'https://acme.example',
      subsidiaries: [
        { id: 's1', status: 'active', primary: false },
        { id: 's2', status: null, primary: true },
      ],
    };
    expect(upgradeStored('vendor', stored)).toEqual(stored);
    expect(upgradeStored('vendor', { subsidiaries: null })).toEqual({ subsidiaries: null, website: null });
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
