import { describe, expect, it } from 'vitest';
import { accountIdOf, sandboxIdOf, stripeId } from './ids.ts';

describe('STRIPE simulator ids', () => {
  it("are Stripe-like, stable, and map back to SANDBOX's ids for their own object only", () => {
    for (const id of ['ORD-000123', 'CH-ORD-000123', 'PO-PAYOUT-000001', 'CUST-000042']) {
      const charge = stripeId('charge', id);
      expect(charge).toMatch(/^ch_[0-9a-f]+$/);
      expect(stripeId('charge', id)).toBe(charge);
      expect(sandboxIdOf('charge', charge)).toBe(id);
      expect(sandboxIdOf('refund', charge)).toBeNull();
      expect(sandboxIdOf('balance_transaction', stripeId('balance_transaction', id))).toBe(id);
    }
    for (const foreign of ['ch_3MmlLrLkdIwHu7ix0snN0B15', 'ch_', 'ch_0', 'ch_00ff', 'po_1NotOurs', 'ORD-000123'])
      expect(sandboxIdOf('charge', foreign)).toBeNull();
  });

  it('give each SANDBOX account its own stable acct_ id', () => {
    expect(accountIdOf('stripe:user_good')).toMatch(/^acct_1[A-Za-z0-9]{15}$/);
    expect(accountIdOf('stripe:user_good')).toBe(accountIdOf('stripe:user_good'));
    expect(accountIdOf('stripe:user_other')).not.toBe(accountIdOf('stripe:user_good'));
  });
});
