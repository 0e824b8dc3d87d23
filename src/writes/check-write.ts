/**
 * The checks every write goes through before it is queued (submitWrite calls
 * this for POST, PATCH, DELETE and every action alike), so that no route can
 * skip one: numbers first (finite, right for their currency), then for object
 * creates and updates the ledger rules and the references. A failure is a 400
 * naming the field, and nothing has been written.
 */
import type { Queryable } from '../db/pool.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../model/object-types.ts';
import { companyCurrency } from '../sql/company-currency.ts';
import { checkNumbers } from './amounts.ts';
import { checkLinks, checkRules, checkVariants, type StoredRecord } from './check-input.ts';
import type { WriteOperation } from '../sql/write-job-states.ts';

type Json = Record<string, unknown>;

export interface WriteToCheck {
  connectionId: string;
  objectType: UnifiedObjectType;
  operation: WriteOperation;
  /** The body the job will carry: what the worker sends on. */
  body: unknown;
  /** The route's body schema: it says which numbers are amounts. */
  bodySchema: Json | undefined;
  /** The record the write changes (PATCH, DELETE, actions); its currency is the default of the body's amounts. */
  target: StoredRecord | null;
}

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export async function checkWrite(db: Queryable, write: WriteToCheck): Promise<void> {
  await checkNumbers(write.body, write.bodySchema, async () => {
    const own = write.target?.data.currency_code;
    return typeof own === 'string' ? own : companyCurrency(db, write.connectionId);
  });
  if (write.operation !== 'create' && write.operation !== 'update') return;
  const { singular } = OBJECT_TYPES[write.objectType];
  const input = isJson(write.body) ? write.body[singular] : undefined;
  if (!isJson(input)) return;
  checkRules(write.objectType, input, singular, write.operation === 'create');
  await checkLinks(db, write.connectionId, write.objectType, input, singular);
  // Commerce writes name what is sold by variant, the platform's id: checked against the stored products.
  if (write.objectType === 'order') await checkVariants(db, write.connectionId, input, singular);
}
