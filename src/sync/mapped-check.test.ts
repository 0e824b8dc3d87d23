import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../log/logger.ts';
import { metrics } from '../metrics/registry.ts';
import { checkMappedObject, conformMapped, MappingViolation } from './mapped-check.ts';

/** A bill as a connector maps it (no last_synced_at or platform_data: the API adds those when it serves). */
function bill(): Record<string, unknown> {
  return {
    id: 'bill-1',
    platform_id: 'B1',
    account_id: null,
    payment_terms_id: null,
    subsidiary_id: null,
    vendor_id: 'v-1',
    due_date: null,
    issue_date: '2024-01-05T00:00:00.000Z',
    amount_due: 10,
    currency_code: 'USD',
    status: 'open',
    total_amount: 10,
    document_number: 'INV-1',
    memo: null,
    sub_total: 10,
    tax_amount: 0,
    total_discount: null,
    currency_rate: null,
    linked_purchase_orders: [],
    linked_credit_memos: [],
    linked_payments: [],
    line_items: [],
    additional_fields: {},
    created_at: '2024-01-05T00:00:00.000Z',
    updated_at: '2024-01-05T00:00:00.000Z',
    platform_url: null,
  };
}

function capturingLog(): { log: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger({ level: 'warn', role: 'worker', destination: stream }), lines };
}

async function violationCount(platform: string, type: string): Promise<number> {
  const metric = await metrics.getSingleMetric('ledgerport_mapping_violations_total')?.get();
  return metric?.values.find((v) => v.labels.platform === platform && v.labels.object_type === type)?.value ?? 0;
}

describe('mapped objects against the unified schema', () => {
  it('passes a bill that fits, as the same object', () => {
    const object = bill();
    expect(checkMappedObject('bill', object)).toEqual({ object, violations: [], repaired: true });
  });

  it('strict: throws naming the platform, type, platform id and each failing path', () => {
    const { log } = capturingLog();
    const object = { ...bill(), memo: 42, due_date: 'soon' };
    const attempt = () => conformMapped({ strict: true, platform: 'XERO', log }, 'bill', 'B1', object);
    expect(attempt).toThrow(MappingViolation);
    expect(attempt).toThrow(/^XERO bill B1 does not fit the unified schema: due_date must match format "date-time"; memo must be string$/);
  });

  it('lenient: a nullable field becomes null, an unknown one goes; counted and logged', async () => {
    const { log, lines } = capturingLog();
    const before = await violationCount('XERO', 'bill');
    const object = { ...bill(), memo: 42, due_date: 'soon', surprise: true };
    const stored = conformMapped({ strict: false, platform: 'XERO', log }, 'bill', 'B1', object);
    expect(stored).toEqual(bill());
    expect(object.memo).toBe(42); // the mapped object itself is left alone
    expect(await violationCount('XERO', 'bill')).toBe(before + 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      mapping: { platform: 'XERO', object_type: 'bill', platform_id: 'B1', repaired: true },
    });
    const paths = (lines[0]?.mapping as { violations: { path: string }[] }).violations.map((v) => v.path).sort();
    expect(paths).toEqual(['due_date', 'memo', 'surprise']);
  });

  it('lenient: a bad field inside a line is nulled in the line, the line kept', () => {
    const line = {
      platform_id: 'L1',
      account_id: 'a',
      class_id: null,
      customer_id: null,
      department_id: null,
      location_id: null,
      project_id: null,
      tax_rate_id: null,
      description: 'x',
      discount_amount: null,
      discount_percentage: null,
      sub_total: 10,
      tax_amount: 0,
      total_amount: 10,
      item: null,
    };
    expect(checkMappedObject('bill', { ...bill(), line_items: [line] }).violations).toEqual([]);
    const object = { ...bill(), line_items: [{ ...line, description: 7 }] };
    const result = checkMappedObject('bill', object);
    if (result.violations.length === 0) throw new Error('expected a violation');
    expect(result.violations.map((v) => v.path)).toContain('line_items.0.description');
    expect(result.object.line_items).toEqual([{ ...line, description: null }]);
    expect(result.repaired).toBe(true);
  });

  it('lenient: a required, non-nullable field that fails is stored as mapped, and says so', () => {
    const result = checkMappedObject('bill', { ...bill(), total_amount: 'ten' });
    expect(result.repaired).toBe(false);
    expect(result.object.total_amount).toBe('ten');
    expect(result.violations).toEqual([{ path: 'total_amount', message: 'must be number' }]);
  });

  it("allows the store's platform_id on statements, whose schema has none", () => {
    const sheet = {
      id: 's',
      platform_id: 'BS-2024-12',
      start_date: '2024-12-01T00:00:00.000Z',
      end_date: '2024-12-31T00:00:00.000Z',
      currency_code: 'USD',
      total_assets: null,
      total_equity: null,
      total_liabilities: null,
      assets: [],
      equity: [],
      liabilities: [],
      created_at: null,
      updated_at: null,
    };
    expect(checkMappedObject('balance_sheet', { ...sheet, platform_idx: 'x' }).violations.map((v) => v.path)).toContain('platform_idx');
    expect(checkMappedObject('balance_sheet', sheet).violations.map((v) => v.path)).not.toContain('platform_id');
  });
});
