import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, TARGET } from '../../../scripts/gen-stripe-contract.ts';
import { platformRefusal as refusal } from '../../../test/support/platform-refusal.ts';
import { parseRecord } from './contract.ts';

describe("Stripe records parsed against Stripe's published contract", () => {
  it('contract-schemas.json is what the script makes of the contract and READS (run `node scripts/gen-stripe-contract.ts`)', async () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(await generate());
  }, 60_000);

  it('passes a record that fits, fields the mapping does not read included, and an expanded object where an id may be', () => {
    const charge = { id: 'ch_1', object: 'charge', amount: 100, currency: 'usd', status: 'succeeded', customer: { id: 'cus_1', anything: [1] } };
    expect(parseRecord('charge', charge)).toBe(charge);
    const payout = { id: 'po_1', amount: 1, currency: 'usd', destination: 'ba_1', account: 'acct_1', balance_transactions: [] };
    expect(parseRecord('payout', payout)).toBe(payout);
  });

  it('refuses one that does not, as a PlatformError naming the path, before any mapping', () => {
    const error = refusal(() =>
      parseRecord('charge', { id: 'ch_1', amount: 100, currency: 'usd', status: 'succeeded', billing_details: { name: 7 } }),
    );
    expect(error).toMatchObject({ kind: 'server', platformCode: 'STRIPE_CONTRACT', httpStatus: 200 });
    expect(error.platformMessage).toBe("Stripe's answer does not fit its published contract: charge.billing_details.name must be string,null");
    expect(refusal(() => parseRecord('dispute', { id: 'dp_1', amount: 1, currency: 'usd', status: 'won' })).platformMessage).toMatch(
      /: dispute must have required property 'reason'$/,
    );
    const transactions = [{ id: 'txn_1', amount: 1, currency: 'usd', fee: '0', type: 'charge' }];
    expect(
      refusal(() => parseRecord('payout', { id: 'po_1', amount: 1, currency: 'usd', balance_transactions: transactions })).platformMessage,
    ).toMatch(/: payout\.balance_transactions\[0\]\.fee must be integer$/);
  });
});
