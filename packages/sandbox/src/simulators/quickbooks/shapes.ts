/** What every QBO entity shares: ids as references, times with the company's offset, amounts as JSON numbers. */
import { parseCents } from '../../money.ts';
import type { NativeMeta } from '../../native.ts';
import { qboId } from './ids.ts';

export type Json = Record<string, unknown>;

/** A ReferenceType: `{ value }` (the name, which QBO adds, is left out where the record does not hold it). */
export interface QboRef {
  value: string;
  name?: string;
}

export function ref(id: string, name?: string): QboRef {
  return name === undefined ? { value: qboId(id) } : { value: qboId(id), name };
}

export function optRef(id: string | undefined): { value: string } | undefined {
  return id === undefined ? undefined : ref(id);
}

/** Decimal text as QBO's JSON number. */
export function amount(money: string | undefined): number {
  return money === undefined || money === '' ? 0 : parseCents(money) / 100;
}

/** The company's offset: QBO writes times in the company's time zone (Pacific here, as Intuit's sample companies). */
const OFFSET_MS = -7 * 3_600_000;

/** An instant as QBO writes it: "2014-11-06T08:41:09-07:00" (with milliseconds for an answer's `time`). */
export function qboTime(at: string | number, withMillis = false): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  const local = new Date(ms + OFFSET_MS).toISOString();
  return `${local.slice(0, withMillis ? 23 : 19)}-07:00`;
}

/**
 * QBO's bookkeeping fields. The SyncToken must move on with every update: the seconds between creation and the last
 * update do (a SANDBOX update always stamps a later UpdatedAt).
 */
export function entityMeta(record: NativeMeta): Json {
  const seconds = Math.max(0, Math.floor((Date.parse(record.UpdatedAt) - Date.parse(record.CreatedAt)) / 1000));
  return {
    domain: 'QBO',
    sparse: false,
    Id: qboId(record.Id),
    SyncToken: String(seconds),
    MetaData: { CreateTime: qboTime(record.CreatedAt), LastUpdatedTime: qboTime(record.UpdatedAt) },
  };
}

/** QBO's entity names of SANDBOX's linked transaction types (a credit note is a CreditMemo). */
export const LINKED_ENTITY: Readonly<Record<string, string>> = {
  Bill: 'Bill',
  BillPayment: 'BillPayment',
  VendorCredit: 'VendorCredit',
  Invoice: 'Invoice',
  Payment: 'Payment',
  CreditNote: 'CreditMemo',
};

/** A 200 answer as QBO sends it: the body with the answer's own `time` (with milliseconds). */
export const ok = (body: Json): { status: number; body: Json } => ({ status: 200, body: { ...body, time: qboTime(Date.now(), true) } });

/** Leaves out undefined fields, as QBO leaves out empty ones. */
export function compact(record: Json): Json {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
