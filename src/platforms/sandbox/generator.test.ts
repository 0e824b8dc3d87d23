import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { MODEL } from '../../model/index.ts';
import { UNIFIED_OBJECT_TYPES } from '../../model/object-types.ts';
import { auditBooks, auditRef } from './audit.ts';
import { generateAll } from './generator/index.ts';
import { mapRecord } from './mapping/index.ts';
import { taxOn } from './money.ts';
import { taxRates } from './books.ts';

const AS_OF = '2025-06-15';
const books = (seed: number, size = 1_500) => generateAll({ seed, size, asOf: AS_OF });
const input = (records: ReturnType<typeof books>['records']) => records.map((r) => ({ type: r.type, raw: r.data }));

describe('generated books', () => {
  it('add up for 20 seeds: totals, amounts due and statuses, allocations both ways, balanced journals, balance sheets, links', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { records } = books(seed);
      expect(auditBooks(input(records)), `seed ${seed}`).toEqual([]);
    }
  });

  it('has data for every object type', () => {
    const { records } = books(7, 3_000);
    const types = new Set(records.map((r) => r.type));
    expect([...UNIFIED_OBJECT_TYPES].filter((t) => !types.has(t))).toEqual([]);
  });

  it('has about the requested number of records', () => {
    for (const size of [1_000, 5_000, 20_000]) {
      const { records } = generateAll({ seed: 3, size, asOf: AS_OF });
      expect(Math.abs(records.length - size) / size).toBeLessThan(0.1);
    }
  });

  it('is the same for the same seed and differs for another seed', () => {
    const a = JSON.stringify(books(42).records);
    expect(JSON.stringify(books(42).records)).toBe(a);
    expect(JSON.stringify(books(43).records)).not.toBe(a);
  });

  it('maps every record to a unified object its schema accepts', () => {
    const { records } = books(11, 2_000);
    const now = new Date().toISOString();
    for (const record of records) {
      const schema = MODEL[record.type].schema;
      const mapped: Record<string, unknown> = { ...mapRecord(record.type, record.data, auditRef), id: `${record.type}:${record.id}` };
      // Service-owned: set by the sync, where the object has it.
      if ('properties' in schema && typeof schema.properties === 'object' && 'last_synced_at' in schema.properties) mapped.last_synced_at = now;
      if (!Value.Check(schema, mapped)) {
        const errors = [...Value.Errors(schema, mapped)].slice(0, 3);
        expect.fail(`${record.type} ${record.id}: ${JSON.stringify(errors)}`);
      }
    }
  });

  it('covers the documented states: partially paid, paid, open, void and draft bills, void payments and journals', () => {
    const { records } = books(5, 5_000);
    const statuses = new Set(records.filter((r) => r.type === 'bill').map((r) => r.data.Status));
    expect([...statuses].sort()).toEqual(['Draft', 'Open', 'Paid', 'PartiallyPaid', 'Void']);
    expect(records.some((r) => r.type === 'journal_entry' && r.data.Status === 'Voided')).toBe(true);
    expect(records.some((r) => r.type === 'bill_credit_memo' && (r.data.LinkedTxns as unknown[]).length > 0)).toBe(true);
    expect(records.some((r) => r.type === 'bill_payment' && (r.data.LinkedTxns as unknown[]).length > 1)).toBe(true);
  });

  it('catches books that do not add up (the audit is not vacuous)', () => {
    const { records } = books(9);
    const bill = records.find((r) => r.type === 'bill' && (r.data.LinkedTxns as unknown[]).length > 0);
    const entry = records.find((r) => r.type === 'journal_entry');
    if (bill === undefined || entry === undefined) throw new Error('fixture lacks a paid bill or a journal entry');
    bill.data.AmountDue = '0.01';
    (entry.data.Lines as { Debit?: string }[])[0] = { Debit: '1.00' };
    const problems = auditBooks(input(records));
    expect(problems.some((p) => p.includes(bill.id) && p.includes('amount_due'))).toBe(true);
    expect(problems.some((p) => p.includes(entry.id))).toBe(true);
  });
});

describe('money', () => {
  it('rounds tax half away from zero in integer cents', () => {
    expect(taxOn(1_000, 8_250)).toBe(83);
    expect(taxOn(-1_000, 8_250)).toBe(-83);
    expect(taxOn(200, 12_500)).toBe(25);
    expect(taxOn(1, 50_000)).toBe(1);
  });

  it('compounds tax components on the taxes before them', () => {
    expect(taxRates([{ Rate: '5.000', Compound: false }, { Rate: '10.000', Compound: true }])).toEqual({ total: 15_000, effective: 15_500 });
    expect(taxRates([{ Rate: '5.000', Compound: false }, { Rate: '9.975', Compound: false }])).toEqual({ total: 14_975, effective: 14_975 });
  });
});
