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

  it('leave other objects as stored', () => {
    const bill = { total_amount: 5 };
    expect(upgradeStored('bill', bill)).toBe(bill);
  });
});
