/**
 * The Stripe stand-in itself: its generated records validate against Stripe's published component schemas, its lists
 * page as Stripe's do, and it records a request the spec does not allow (so a test asserting none can fail).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeContract } from './contract.ts';
import { startStripeStandIn, type StripeStandIn } from './server.ts';

let standin: StripeStandIn;
beforeAll(async () => {
  standin = await startStripeStandIn();
}, 60_000);
afterAll(async () => standin.close());

describe('Stripe stand-in', () => {
  it('generates records that validate against the spec component schemas', async () => {
    const contract = await stripeContract();
    const account = standin.addAccount({ id: 'acct_contract0001', name: 'Contract Co', charges: 12, payouts: 2, subscriptions: 4 });
    account.deleteCustomer(account.customers[0]?.id ?? '');
    expect(account.disputes.length).toBeGreaterThan(0);
    expect(account.subscriptions.map((s) => s.status)).toEqual(['active', 'active', 'active', 'canceled']);
    const problems = [
      ...account.charges.map((r) => contract.checkComponent('charge', r)),
      ...account.customers.map((r) => contract.checkComponent('customer', r)),
      ...account.disputes.map((r) => contract.checkComponent('dispute', r)),
      ...account.subscriptions.map((r) => contract.checkComponent('subscription', r)),
      ...account.payouts.map((r) => contract.checkComponent('payout', r)),
      ...account.balanceTransactions.map((r) => contract.checkComponent('balance_transaction', r)),
      ...account.events.map((r) => contract.checkComponent('event', r)),
      contract.checkComponent('account', account.account),
      contract.checkComponent('event', standin.deauthorize(account.id)),
    ].flat();
    expect(problems).toEqual([]);
    // A wrong record is caught: the checks can fail.
    expect(contract.checkComponent('charge', { ...account.charges[0], amount: 'ten' })).not.toEqual([]);
  });

  it('pages lists newest first with starting_after and has_more, and refuses undeclared parameters as violations', async () => {
    standin.addAccount({ id: 'acct_paging00001', name: 'Paging Co', charges: 25 });
    const key = standin.issueKey('acct_paging00001');
    const get = async (path: string) => {
      const response = await fetch(`${standin.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      return { status: response.status, body: (await response.json()) as { data: { id: string; created: number }[]; has_more: boolean } };
    };
    const first = await get('/v1/charges?limit=10');
    expect([first.status, first.body.data.length, first.body.has_more]).toEqual([200, 10, true]);
    const ids = first.body.data.map((c) => c.id);
    const seen = [...ids];
    let after = ids.at(-1);
    for (;;) {
      const next = await get(`/v1/charges?limit=10&starting_after=${after ?? ''}`);
      seen.push(...next.body.data.map((c) => c.id));
      after = next.body.data.at(-1)?.id;
      if (!next.body.has_more) break;
    }
    expect(new Set(seen).size).toBe(25);
    expect(standin.violations).toEqual([]);
    const bad = await get('/v1/charges?limit=ten&colour=blue');
    expect(bad.status).toBe(400);
    expect(standin.violations.map((v) => v.problems).flat()).toEqual(expect.arrayContaining([expect.stringContaining('colour')]));
    standin.violations.length = 0;
  });
});
