/**
 * What every QBO entity shares: numeric ids, references, times with the company's offset, amounts as JSON numbers,
 * and the codecs of the field tables (../field-table.ts) that carry SANDBOX fields to QBO's and back.
 *
 * QBO ids are numeric strings unique per entity; SANDBOX ids are `<prefix>-<6 digits>` unique per collection. The
 * number is the QBO id (BILL-000123 is Bill 123), and the entity, known from the path or the reference, gives the
 * prefix back, so the mapping needs no table and survives restarts.
 */
import { createHash } from 'node:crypto';
import type { UnifiedObjectType } from '../../../../../src/model/object-types.ts';
import { collectionOf, platformIdFor } from '../../collections.ts';
import { parseCents } from '../../money.ts';
import type { NativeMeta } from '../../native.ts';
import { outOnly, type Codec } from '../field-table.ts';

export type Json = Record<string, unknown>;

/** The QBO id of a SANDBOX id; a natural id (no numbered prefix) is kept as it is. */
export function qboId(sandboxId: string): string {
  const numbered = /^[A-Z]+-(\d+)$/.exec(sandboxId);
  return numbered?.[1] === undefined ? sandboxId : String(Number(numbered[1]));
}

/** The SANDBOX id of a QBO id of `type`; null when it is no QBO id (not a positive whole number). */
export function sandboxId(type: UnifiedObjectType, id: string): string | null {
  if (!/^[1-9]\d{0,8}$/.test(id)) return null;
  return platformIdFor(collectionOf(type).prefix, Number(id));
}

/** A realm id as Intuit issues them (16 to 19 digits), stable for an account key. */
export function realmIdOf(accountKey: string): string {
  const digest = createHash('sha256').update(`quickbooks realm ${accountKey}`).digest();
  // 9 followed by 18 digits of the hash's first 64 bits: always 19 digits, never a leading zero.
  const digits = (digest.readBigUInt64BE(0) % 10n ** 18n).toString().padStart(18, '0');
  return `9${digits}`;
}

/** A ReferenceType: `{ value }` (the name, which QBO adds, is left out: the record does not hold it). */
export function ref(id: string): { value: string } {
  return { value: qboId(id) };
}

export function optRef(id: string | undefined): { value: string } | undefined {
  return id === undefined ? undefined : ref(id);
}

/** Decimal text as QBO's JSON number. */
export function amount(money: string | undefined): number {
  return money === undefined || money === '' ? 0 : parseCents(money) / 100;
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Text both ways; anything else sent is ignored. */
export const text: Codec = { out: textOf, in: textOf };

/**
 * A reference's `value` to a record of `type`, both ways: a QBO id read back becomes the SANDBOX id; one that is no QBO
 * id is passed on as given, for SANDBOX to refuse as unknown; an empty one is ignored (QBO cannot clear a ref sparsely).
 */
export const refTo = (type: UnifiedObjectType): Codec => ({
  out: (id) => (typeof id === 'string' ? qboId(id) : undefined),
  in: (value) => {
    const id = typeof value === 'number' ? String(value) : (textOf(value) ?? '');
    return id === '' ? undefined : (sandboxId(type, id) ?? id);
  },
});

/** An amount SANDBOX works out (a total, a balance) as a JSON number, none as 0: rendered only. */
export const money: Codec = outOnly((value) => amount(textOf(value)));

/** A status as QBO's Active flag: `active` is true; false writes `inactive`. */
export const activeWhen = (active: string, inactive = 'Archived'): Codec => ({
  out: (status) => status === active,
  in: (flag) => (typeof flag === 'boolean' ? (flag ? active : inactive) : undefined),
});

/** A currency code as a CurrencyRef's value (read back in upper case). */
export const currencyCode: Codec = { out: textOf, in: (code) => textOf(code)?.toUpperCase() };

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
  return bookkeeping(qboId(record.Id), seconds, record.CreatedAt, record.UpdatedAt);
}

/** The bookkeeping fields of version `syncToken` of record `id`, created and last updated at these instants. */
export function bookkeeping(id: string, syncToken: number, created: string | number, updated: string | number): Json {
  return {
    domain: 'QBO',
    sparse: false,
    Id: id,
    SyncToken: String(syncToken),
    MetaData: { CreateTime: qboTime(created), LastUpdatedTime: qboTime(updated) },
  };
}

/** A voided transaction as QBO keeps it: amounts zeroed, lines cleared and "Voided" in front of its PrivateNote. */
export function voided(record: Json, memo: unknown): Json {
  return {
    ...record,
    TotalAmt: 0,
    ...(record.Balance === undefined ? {} : { Balance: 0 }),
    ...(record.RemainingCredit === undefined ? {} : { RemainingCredit: 0 }),
    Line: [],
    PrivateNote: typeof memo !== 'string' || memo === '' ? 'Voided' : `Voided - ${memo}`,
  };
}

/** QBO's entity name of a SANDBOX transaction type (linked, or a file's parent): its own but for these. */
const RENAMED: Readonly<Record<string, string>> = { CreditNote: 'CreditMemo', Expense: 'Purchase' };

export const entityNameOf = (type: string): string => (Object.hasOwn(RENAMED, type) ? RENAMED[type] : undefined) ?? type;

/** A 200 answer as QBO sends it: the body with the answer's own `time` (with milliseconds). */
export const ok = (body: Json): { status: number; body: Json } => ({ status: 200, body: { ...body, time: qboTime(Date.now(), true) } });

/** Leaves out undefined fields, as QBO leaves out empty ones. */
export function compact(record: Json): Json {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
