/**
 * Applying a bill credit memo to bills, and undoing it. The service's own
 * design (the spec shows neither body nor response): the body names the memo
 * and the bills; the answer is the credit memo afterwards, whose linked_bills
 * say where its credit now stands. Platforms without an endpoint of their own
 * get it as an update of the memo's applications (src/writes/operations.ts).
 */
import { Type, type TSchema } from 'typebox';
import type { Queryable } from '../../../db/pool.ts';
import { MODEL } from '../../../model/index.ts';
import { invalidField } from '../../../writes/check-input.ts';
import { AsyncResponseSchema } from '../../../writes/job-view.ts';

type Json = Record<string, unknown>;

export const KEY = 'bill_credit_application';

export const ApplicationResultSchema: TSchema = Type.Object({ bill_credit_memo: MODEL.bill_credit_memo.schema });
export const ALSO_ASYNC = [{ status: 202, schema: AsyncResponseSchema }] as const;

export interface StoredRecord { id: string; data: Json }

/** A live record of the type named by a body field, or a 400 naming that field. */
export async function referenced(db: Queryable, connectionId: string, type: 'bill' | 'bill_credit_memo', id: string, field: string): Promise<StoredRecord> {
  const valid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const result = valid
    ? await db.query<StoredRecord>('SELECT id, data FROM records WHERE connection_id = $1 AND object_type = $2 AND id = $3 AND deleted_at IS NULL', [connectionId, type, id])
    : { rows: [] };
  const row = result.rows[0];
  if (row === undefined) throw invalidField(field, `is not the id of a ${type.replaceAll('_', ' ')} in this connection (got "${id}")`);
  return row;
}

export const cents = (value: unknown): number => (typeof value === 'number' ? Math.round(value * 100) : 0);

export function appliedBills(memo: StoredRecord): Map<string, number> {
  const linked = Array.isArray(memo.data.linked_bills) ? memo.data.linked_bills as Json[] : [];
  return new Map(linked.map((entry) => [String(entry.id), cents(entry.allocated_amount)]));
}
