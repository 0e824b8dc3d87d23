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

  it('leave other objects as stored', () => {
    const bill = { total_amount: 5 };
    expect(upgradeStored('bill', bill)).toBe(bill);
  });
});
