import { describe, expect, it } from 'vitest';
import { UNIFIED_OBJECT_TYPES } from '../../../src/model/object-types.ts';
import { validateConnector } from '../../../src/platforms/registry.ts';
import { createSandboxConnector } from './index.ts';
import { WRITERS } from './writes/index.ts';

const connector = createSandboxConnector();

describe('sandbox connector', () => {
  it('passes the registry checks', () => {
    expect(validateConnector(connector)).toEqual([]);
    expect(connector).toMatchObject({ id: 'SANDBOX', kind: 'accounting', auth: { type: 'credentials' } });
  });

  it('reads every unified object type but disputes and subscriptions, with cursors and reported deletions', () => {
    for (const type of UNIFIED_OBJECT_TYPES) {
      if (type === 'dispute' || type === 'subscription') expect(connector.objects[type], type).toBeUndefined();
      else expect(connector.objects[type]?.capabilities, type).toMatchObject({ read: true, incremental: 'cursor', deletions: 'reported' });
    }
  });

  it('declares writes exactly where the platform accepts them', () => {
    const writable = UNIFIED_OBJECT_TYPES.filter((t) => connector.objects[t]?.capabilities.create === true).sort();
    expect(writable).toEqual(Object.keys(WRITERS).sort());
    expect(writable).toEqual([
      'account',
      'bank_deposit',
      'bank_feed_account',
      'bank_transfer',
      'bill',
      'bill_credit_memo',
      'bill_payment',
      'class',
      'customer',
      'customer_refund',
      'department',
      'expense',
      'invoice',
      'invoice_credit_memo',
      'invoice_payment',
      'item',
      'journal_entry',
      'order',
      'payment_term',
      'product',
      'purchase_order',
      'sales_order',
      'sales_receipt',
      'tax_rate',
      'vendor',
    ]);
  });

  it("writes a product's variants through their own endpoints", () => {
    const variants = connector.objects.product?.handler.nested?.variants;
    expect(Object.keys(variants ?? {}).sort()).toEqual(['create', 'delete', 'update']);
  });

  it('asks for basic credentials only', () => {
    const auth = connector.auth;
    expect(auth.type === 'credentials' ? auth.fields.map((f) => [f.field, f.required, f.secret]) : null).toEqual([
      ['basic_username', true, false],
      ['basic_password', true, true],
    ]);
  });
});
