import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { MODEL } from '../../model/index.ts';
import { UNIFIED_OBJECT_TYPES } from '../../model/object-types.ts';
import { auditBooks, auditRef } from './audit.ts';
import { generateAll } from './generator/index.ts';
import { salesReceiptCount } from './generator/sales-receipts.ts';
import { mapRecord } from './mapping/index.ts';
import { mapEmployee } from './mapping/master.ts';
import type { NativeEmployee, NativeSalesReceipt } from './native.ts';
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

describe('employees', () => {
  // Generated records of the employee collection have its native shape by construction.
  const people = (records: ReturnType<typeof books>['records']) => records.filter((r) => r.type === 'employee')
    .map((r) => ({ key: `employee:${r.id}`, ...mapEmployee(r.data as NativeEmployee, auditRef) }));

  it('are a few to tens by the size of the books, and come last, after every other record', () => {
    const counts = [300, 1_500, 20_000].map((size) => people(generateAll({ seed: 3, size, asOf: AS_OF }).records).length);
    expect(counts[0]).toBeGreaterThanOrEqual(5);
    expect(counts[2]).toBeLessThanOrEqual(60);
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
    expect(counts[0]).toBeLessThan(counts[2] ?? 0);
    const { records } = books(4);
    const first = records.findIndex((r) => r.type === 'employee');
    expect(first).toBeGreaterThan(0);
    expect(records.slice(first).every((r) => r.type === 'employee')).toBe(true);
  });

  it('work in the business\'s departments under one managing director, hired after their managers, terminated after their hire', () => {
    const statuses = new Set<unknown>();
    for (let seed = 1; seed <= 10; seed++) {
      const { records } = books(seed, 5_000);
      const departments = new Set(records.filter((r) => r.type === 'department').map((r) => `department:${r.id}`));
      const staff = people(records);
      const byKey = new Map(staff.map((e) => [e.key, e]));
      const top = staff.filter((e) => e.manager_id === null);
      expect(top.map((e) => e.position), `seed ${seed}`).toEqual(['Managing Director']);
      for (const e of staff) {
        statuses.add(e.status);
        expect(departments.has(String(e.department_id)), e.key).toBe(true);
        const manager = e.manager_id === null ? undefined : byKey.get(e.manager_id);
        if (e.manager_id !== null) expect(manager, e.key).toBeDefined();
        if (manager !== undefined) {
          expect(String(manager.hire_date) <= String(e.hire_date), e.key).toBe(true);
          expect(manager.status).not.toBe('terminated');
        }
        expect(e.status === 'terminated').toBe(e.termination_date !== null);
        if (e.termination_date !== null) expect(e.termination_date > String(e.hire_date)).toBe(true);
        expect(String(e.hire_date) <= `${AS_OF}T00:00:00.000Z`).toBe(true);
        expect(e.salary).toBeGreaterThan(0);
      }
      // Every department has a head reporting to the director.
      expect(new Set(staff.filter((e) => e.manager_id === top[0]?.key).map((e) => e.department_id))).toEqual(departments);
    }
    expect([...statuses].sort()).toEqual(['active', 'inactive', 'terminated']);
  });

  it('the audit catches a loop of managers and a termination without its date', () => {
    const { records } = books(9);
    const [a, b] = records.filter((r) => r.type === 'employee' && r.data.ManagerId !== undefined);
    if (a === undefined || b === undefined) throw new Error('fixture lacks managed employees');
    a.data.ManagerId = b.id;
    b.data.ManagerId = a.id;
    b.data.Status = 'Terminated';
    const problems = auditBooks(input(records));
    expect(problems.some((p) => p.includes(a.id) && p.includes('loop'))).toBe(true);
    expect(problems.some((p) => p.includes(b.id) && p.includes('termination_date'))).toBe(true);
  });
});

describe('sales receipts', () => {
  it('are a modest number by size, paid into checking on the day, and come after the transactions, before the closing', () => {
    for (const size of [300, 1_500, 20_000]) {
      const { records } = generateAll({ seed: 3, size, asOf: AS_OF });
      const receipts = records.filter((r) => r.type === 'sales_receipt');
      expect(receipts.length).toBe(salesReceiptCount(size));
      const first = records.findIndex((r) => r.type === 'sales_receipt');
      expect(records.slice(first, first + receipts.length).every((r) => r.type === 'sales_receipt')).toBe(true);
      expect(records.slice(0, first).some((r) => r.type === 'balance_sheet' || r.type === 'employee')).toBe(false);
      const dates = receipts.map((r) => String(r.data.TxnDate));
      expect(dates).toEqual([...dates].sort());
      expect(dates.every((d) => d >= '2023-07-01' && d <= AS_OF)).toBe(true);
      expect(receipts.every((r) => r.data.DepositToAccountId === 'ACC-000001')).toBe(true);
    }
    expect(salesReceiptCount(300)).toBe(6);
    expect(salesReceiptCount(20_000)).toBe(200);
  });

  it('post to the ledger: the audit catches a receipt whose lines do not add up, one left out, one deposited to income', () => {
    const { records } = books(12);
    const [a, b, c] = records.filter((r) => r.type === 'sales_receipt');
    if (a === undefined || b === undefined || c === undefined) throw new Error('fixture lacks three sales receipts');
    expect(auditBooks(input(records))).toEqual([]);
    // Generated records of the collection have its native shape by construction.
    const [line] = (a.data as NativeSalesReceipt).Lines;
    if (line === undefined) throw new Error('a receipt without lines');
    line.Total = '0.01';
    c.data.DepositToAccountId = 'ACC-000023';
    const problems = auditBooks(input(records.filter((r) => r !== b)));
    expect(problems.some((p) => p.includes(a.id) && p.includes('line totals'))).toBe(true);
    expect(problems.some((p) => p.includes(c.id) && p.includes('no asset account'))).toBe(true);
    // b's sale is still in the checking account's balance, but no document posts it any more.
    expect(problems.some((p) => p.startsWith('account:ACC-000001') && p.includes('postings'))).toBe(true);
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
