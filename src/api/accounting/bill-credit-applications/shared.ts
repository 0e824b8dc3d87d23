/**
 * Applying a bill credit memo to bills, and undoing it. The service's own
 * design (the spec shows neither body nor response): the body names the memo
 * and the bills; the answer is the credit memo afterwards, whose linked_bills
 * say where its credit now stands. Platforms without an endpoint of their own
 * get it as an update of the memo's applications (src/writes/operations.ts).
 */
import { Type, type TSchema } from 'typebox';
import { MODEL } from '../../../model/index.ts';
import type { StoredRecord } from '../../../writes/check-input.ts';
import { AsyncResponseSchema } from '../../../writes/job-view.ts';

type Json = Record<string, unknown>;

export const KEY = 'bill_credit_application';

export const ApplicationResultSchema: TSchema = Type.Object({ bill_credit_memo: MODEL.bill_credit_memo.schema });
export const ALSO_ASYNC = [{ status: 202, schema: AsyncResponseSchema }] as const;

export const cents = (value: unknown): number => (typeof value === 'number' ? Math.round(value * 100) : 0);

export function appliedBills(memo: StoredRecord): Map<string, number> {
  const linked = Array.isArray(memo.data.linked_bills) ? memo.data.linked_bills as Json[] : [];
  return new Map(linked.map((entry) => [String(entry.id), cents(entry.allocated_amount)]));
}
