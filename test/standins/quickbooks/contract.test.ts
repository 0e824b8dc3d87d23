/**
 * The stand-in's copy of Intuit's contract (contract-schemas.json, from the XML Schema in test/contracts/quickbooks):
 * current with its script, strict enough to catch a misspelt field, a wrong type and a value outside an enumeration,
 * and fitting every recorded answer the stand-in is seeded from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateStandInContract, STANDIN_TARGET } from '../../../scripts/gen-quickbooks-standin-contract.ts';
import { fixture } from './fixtures.ts';
import { CONTRACT } from './validate.ts';

const FIXTURES = new URL('../../fixtures/quickbooks/', import.meta.url);

describe("QuickBooks Online stand-in's contract", () => {
  it('is what the script makes of the XML Schema (run `node scripts/gen-quickbooks-standin-contract.ts`)', () => {
    expect(readFileSync(STANDIN_TARGET, 'utf8')).toBe(generateStandInContract());
  });

  it('fits every recorded answer: entities, query and CDC envelopes, faults and reports', () => {
    const names = [
      ...readdirSync(FIXTURES).filter((name) => name.endsWith('.json')),
      ...readdirSync(new URL('query/', FIXTURES)).map((name) => `query/${name}`),
      ...readdirSync(new URL('faults/', FIXTURES)).map((name) => `faults/${name}`),
    ];
    expect(names.length).toBeGreaterThan(35);
    for (const name of names) {
      const root = /balancesheet|profitandloss|cashflow/.test(name) ? 'Report' : 'IntuitResponse';
      expect(CONTRACT.problems(root, fixture(name), name), name).toEqual([]);
    }
  });

  it('names a field the entity does not have, a value of another type and one outside an enumeration', () => {
    const bill = {
      VendorRef: { value: '56' },
      Notes: 'misspelt',
      Line: [{ DetailType: 'AccountBasedExpenseLineDetail', Amount: '12.50', AccountBasedExpenseLineDetail: { AccountRef: { value: 7 } } }],
    };
    expect(CONTRACT.problems('Bill', bill)).toEqual([
      'Bill has Notes, which the contract does not have',
      'Bill.Line[0].AccountBasedExpenseLineDetail.AccountRef.value must be string',
      'Bill.Line[0].Amount must be number',
    ]);
    const line = { DetailType: 'JournalEntryLineDetail', Amount: 5, JournalEntryLineDetail: { PostingType: 'Debet' } };
    expect(CONTRACT.problems('JournalEntry', { Line: [line] })).toEqual([
      'JournalEntry.Line[0].JournalEntryLineDetail.PostingType must be equal to one of the allowed values',
    ]);
  });
});
