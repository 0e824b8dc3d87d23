/**
 * Checks a write needs beyond its schema, made before anything is queued so
 * that a mistake answers 400 at once with the field named: every linked id
 * exists in this connection's stored copy and is of the right kind, journal
 * entries balance, transfers move money between two accounts, and similar
 * ledger rules the platform would otherwise refuse after a round trip.
 */
import type { Queryable } from '../db/pool.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { collectLinks, LINKS, type LinkField } from '../model/fields.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../model/object-types.ts';
import { decimalParts, decimalPlaces, formatUnits, scaledUnits } from '../money/decimal.ts';
import { WRITABLE } from './writable.ts';
import { findLiveRecord, liveRecordKinds, liveVariantIds } from '../sql/record-lookups.ts';

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function invalidField(field: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', `\`${field}\` in the request body ${message}.`, { source: 'service', field, location: 'body' });
}

/** The references a write body of the type may carry: the read model's links and the input-only ones (WRITABLE). */
export function writeLinks(type: UnifiedObjectType): readonly LinkField[] {
  return [...LINKS[type], ...(WRITABLE[type]?.inputLinks ?? [])];
}

/**
 * Every id the object links to must be a live record of one of the link's target types in this connection.
 * An id that is no UUID cannot be one: it is refused without a query (PostgreSQL would refuse the cast).
 */
export async function checkLinks(db: Queryable, connectionId: string, type: UnifiedObjectType, input: Json, prefix: string): Promise<void> {
  const links = collectLinks(writeLinks(type), input);
  if (links.length === 0) return;
  const ids = [...new Set(links.map((l) => l.id).filter((id) => UUID.test(id)))];
  const rows = ids.length === 0 ? [] : await liveRecordKinds(db, connectionId, ids);
  const found = new Map(rows.map((r) => [r.id, r.object_type]));
  for (const link of links) {
    const kind = found.get(link.id.toLowerCase());
    if (kind !== undefined && (link.targets as readonly string[]).includes(kind)) continue;
    const wanted = link.targets.map((t) => OBJECT_TYPES[t].singular.replaceAll('_', ' ')).join(' or ');
    const what =
      kind === undefined ? `is not the id of a ${wanted} in this connection` : `is the id of a ${kind.replaceAll('_', ' ')}, not of a ${wanted}`;
    throw invalidField(`${prefix}.${link.path}`, `${what} (got "${link.id}"); use the id field of GET ${OBJECT_TYPES[link.targets[0]].path}`);
  }
}

/**
 * Product variants a commerce write names by `variant_id` (the platform's id, as reads serve it in
 * `variants[].id` of GET /commerce/products): each must be a variant of a live product of the connection.
 */
export async function checkVariants(db: Queryable, connectionId: string, input: Json, prefix: string): Promise<void> {
  const lines = Array.isArray(input.line_items) ? input.line_items : [];
  const named = lines.map((line: unknown, n) => ({ n, id: isJson(line) && typeof line.variant_id === 'string' ? line.variant_id : null }));
  const ids = named.flatMap((entry) => (entry.id === null ? [] : [entry.id]));
  if (ids.length === 0) return;
  const found = await liveVariantIds(db, connectionId, [...new Set(ids)]);
  const missing = named.find((entry) => entry.id !== null && !found.has(entry.id));
  if (missing !== undefined)
    throw invalidField(
      `${prefix}.line_items[${missing.n}].variant_id`,
      `is not a variant of a product in this connection (got "${String(missing.id)}"); use variants[].id of GET /commerce/products`,
    );
}

/**
 * Signed amounts summed exactly, as the decimals that were sent (0.1 + 0.2 balances against 0.3, and 1.005 + 1.004
 * against 2.009 in a three-decimal currency). Runs after checkNumbers: every amount is finite and exactly kept.
 */
function exactSum(values: readonly number[]): { debits: bigint; credits: bigint; format: (units: bigint) => string } {
  const parts = values.map(decimalParts);
  const places = Math.max(2, ...parts.map(decimalPlaces));
  const units = parts.map((p) => scaledUnits(p, places));
  return {
    debits: units.filter((u) => u > 0n).reduce((a, b) => a + b, 0n),
    credits: -units.filter((u) => u < 0n).reduce((a, b) => a + b, 0n),
    format: (u) => formatUnits(u, places),
  };
}

const amountOf = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** A line with an item may leave account_id out (the item's income account); any other line names its account. */
function itemOrAccountLines(input: Json, prefix: string): void {
  for (const [n, line] of entries(input, 'line_items').entries()) {
    const item = line.item;
    const hasItem = typeof item === 'object' && item !== null && typeof (item as Json).id === 'string';
    if ((line.account_id === undefined || line.account_id === null) && !hasItem) {
      throw invalidField(
        `${prefix}.line_items[${n}].account_id`,
        "is required on a line without item.id (an item line posts to the item's income account)",
      );
    }
  }
}

function positiveAllocations(input: Json, prefix: string, field: string): void {
  for (const [n, entry] of entries(input, field).entries()) {
    if (amountOf(entry.allocated_amount) <= 0) throw invalidField(`${prefix}.${field}[${n}].allocated_amount`, 'must be greater than 0');
  }
}

/**
 * An invoice payment takes our names or the reference's for the same value (docs/reference.md): transaction_date or
 * txn_date, an allocation's allocated_amount or amount, allocated_date or allocated_at. One of each pair is needed
 * where ours is; both must agree. An allocation is dated with its payment, so a date sent on one must be the payment's
 * day; total_amount, the reference's, must be the sum of the allocations.
 */
function invoicePaymentNames(input: Json, prefix: string, create: boolean): void {
  const date = agreeing(input, prefix, 'transaction_date', 'txn_date');
  if (create && date === undefined) throw invalidField(`${prefix}.transaction_date`, "is required (or the reference's txn_date)");
  if (input.linked_invoices === undefined) {
    if (input.total_amount !== undefined) throw invalidField(`${prefix}.total_amount`, 'can only be sent with linked_invoices, whose sum it must be');
    return;
  }
  const amounts: number[] = [];
  for (const [n, entry] of entries(input, 'linked_invoices').entries()) {
    const at = `${prefix}.linked_invoices[${n}]`;
    const amount = agreeing(entry, at, 'allocated_amount', 'amount');
    if (typeof amount !== 'number') throw invalidField(`${at}.allocated_amount`, "is required (or the reference's amount)");
    if (amount <= 0) throw invalidField(`${at}.allocated_amount`, 'must be greater than 0');
    amounts.push(amount);
    const allocated = agreeing(entry, at, 'allocated_date', 'allocated_at');
    if (typeof allocated === 'string' && (typeof date !== 'string' || allocated.slice(0, 10) !== date.slice(0, 10))) {
      throw invalidField(
        `${at}.allocated_date`,
        "must be the payment's transaction_date, sent with it: platforms date an allocation with its payment",
      );
    }
  }
  if (typeof input.total_amount === 'number') {
    // Exact decimals: the allocations as debits against the total as a credit.
    const { debits, credits, format } = exactSum([...amounts, -input.total_amount]);
    if (debits !== credits) {
      throw invalidField(`${prefix}.total_amount`, `is not the sum of linked_invoices (${format(debits)}); leave it out or send that sum`);
    }
  }
}

/** The value under our name or the reference's; both sent must be the same value. */
function agreeing(input: Json, prefix: string, ours: string, theirs: string): unknown {
  const a = input[ours];
  const b = input[theirs];
  if (a !== undefined && b !== undefined && a !== b)
    throw invalidField(`${prefix}.${theirs}`, `must equal ${ours} when both are sent (the same value by two names)`);
  return a ?? b;
}

function entries(input: Json, field: string): Json[] {
  const value = input[field];
  return Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];
}

/** Ledger rules per resource; `create` says whether the whole object is present (PATCH checks what it carries). */
const RULES: Partial<Record<UnifiedObjectType, (input: Json, prefix: string, create: boolean) => void>> = {
  journal_entry: (input, prefix) => {
    if (!Object.hasOwn(input, 'line_items')) return;
    const { debits, credits, format } = exactSum(entries(input, 'line_items').map((line) => amountOf(line.total_amount)));
    if (debits === 0n || credits === 0n) {
      throw invalidField(`${prefix}.line_items`, 'must hold at least one debit (positive total_amount) and one credit (negative total_amount)');
    }
    if (debits !== credits) {
      throw invalidField(
        `${prefix}.line_items`,
        `do not balance: debits total ${format(debits)} and credits ${format(credits)}; the signed total_amount values must sum to 0`,
      );
    }
  },
  bank_transfer: (input, prefix) => {
    if (typeof input.credit_account_id === 'string' && input.credit_account_id === input.debit_account_id) {
      throw invalidField(`${prefix}.debit_account_id`, 'must differ from credit_account_id: a transfer moves money between two accounts');
    }
    if (Object.hasOwn(input, 'total_amount') && amountOf(input.total_amount) <= 0)
      throw invalidField(`${prefix}.total_amount`, 'must be greater than 0');
  },
  bill_payment: (input, prefix) => {
    for (const [n, entry] of entries(input, 'linked_bills').entries()) {
      if (amountOf(entry.allocated_amount) <= 0) throw invalidField(`${prefix}.linked_bills[${n}].allocated_amount`, 'must be greater than 0');
    }
  },
  bill_credit_memo: (input, prefix) => {
    for (const [n, entry] of entries(input, 'linked_bills').entries()) {
      if (amountOf(entry.allocated_amount) <= 0) throw invalidField(`${prefix}.linked_bills[${n}].allocated_amount`, 'must be greater than 0');
    }
  },
  invoice: (input, prefix) => {
    itemOrAccountLines(input, prefix);
  },
  invoice_credit_memo: (input, prefix) => {
    itemOrAccountLines(input, prefix);
    positiveAllocations(input, prefix, 'linked_invoices');
  },
  invoice_payment: (input, prefix, create) => {
    invoicePaymentNames(input, prefix, create);
  },
  customer_refund: (input, prefix) => {
    itemOrAccountLines(input, prefix);
    for (const [n, line] of entries(input, 'line_items').entries()) {
      const item = line.item;
      const unitAmount = typeof item === 'object' && item !== null ? (item as Json).unit_amount : undefined;
      if (line.total_amount === undefined && typeof unitAmount !== 'number')
        throw invalidField(`${prefix}.line_items[${n}].total_amount`, 'is required on a line without item.unit_amount');
      if (typeof line.total_amount === 'number' && line.total_amount <= 0)
        throw invalidField(`${prefix}.line_items[${n}].total_amount`, 'must be greater than 0: a refund pays money back');
    }
  },
  // A sale paid at once: its lines as an invoice's.
  sales_receipt: (input, prefix, create) => RULES.invoice?.(input, prefix, create),
  bank_deposit: (input, prefix, create) => {
    if (create && entries(input, 'linked_payments').length === 0 && entries(input, 'line_items').length === 0) {
      throw invalidField(`${prefix}.line_items`, 'or linked_payments must have at least one entry: a deposit deposits something');
    }
  },
};

export function checkRules(type: UnifiedObjectType, input: Json, prefix: string, create: boolean): void {
  RULES[type]?.(input, prefix, create);
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export interface StoredRecord {
  id: string;
  platformId: string;
  data: Json;
}

async function findLive(db: Queryable, connectionId: string, type: UnifiedObjectType, id: string): Promise<StoredRecord | null> {
  if (!UUID.test(id)) return null;
  const row = await findLiveRecord(db, connectionId, type, id);
  return row === null ? null : { id: row.id, platformId: row.platform_id, data: row.data };
}

/** The object must exist (live) in the stored copy: the target of a PATCH, DELETE or action named in the path (410 otherwise). */
export async function liveRecord(db: Queryable, connectionId: string, type: UnifiedObjectType, id: string): Promise<StoredRecord> {
  const found = await findLive(db, connectionId, type, id);
  if (found === null) {
    throw new ServiceError('RESOURCE_NOT_FOUND', `No ${OBJECT_TYPES[type].singular.replaceAll('_', ' ')} with id ${id} in this connection.`, {
      source: 'service',
      field: 'id',
      location: 'params',
    });
  }
  return found;
}

/** A live record named by a body field (400 naming the field otherwise). */
export async function referencedRecord(
  db: Queryable,
  connectionId: string,
  type: UnifiedObjectType,
  id: string,
  field: string,
): Promise<StoredRecord> {
  const found = await findLive(db, connectionId, type, id);
  if (found === null)
    throw invalidField(field, `is not the id of a ${OBJECT_TYPES[type].singular.replaceAll('_', ' ')} in this connection (got "${id}")`);
  return found;
}
