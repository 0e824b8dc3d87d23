/** The recorded QuickBooks Online response shapes of test/fixtures/quickbooks, read once. */
import { readdirSync, readFileSync } from 'node:fs';
import { isObject as isJson, type Json } from '../kit/collections.ts';
import { seededRandom } from '../kit/random.ts';

export { isJson, type Json };

const DIR = new URL('../../fixtures/quickbooks/', import.meta.url);
const cache = new Map<string, unknown>();

/** A fixture file, parsed; every caller gets its own copy. */
export function fixture(name: string): Json {
  let parsed = cache.get(name);
  if (parsed === undefined) {
    parsed = JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as unknown;
    cache.set(name, parsed);
  }
  if (!isJson(parsed)) throw new Error(`fixture ${name} is not a JSON object`);
  return structuredClone(parsed);
}

/** Entities the stand-in keeps: one per recorded query/<Entity>.json, which seeds it. */
export const ENTITIES: readonly string[] = readdirSync(new URL('query/', DIR))
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length))
  .sort();

/** Entities only a multicurrency company has (Preferences.CurrencyPrefs.MultiCurrencyEnabled). */
export const MULTICURRENCY_ENTITIES: readonly Entity[] = ['CompanyCurrency', 'ExchangeRate'];

/** How the stand-in keys a record: its Id, or for an ExchangeRate (which has none) its currencies and date. */
export function recordKey(entity: Entity, record: Json): string {
  if (entity !== 'ExchangeRate') return String(record.Id);
  return [record.SourceCurrencyCode, record.TargetCurrencyCode, record.AsOfDate].map((part) => (typeof part === 'string' ? part : '')).join('|');
}

/** An entity's name, as in queries (one of ENTITIES). */
export type Entity = string;

export const isEntity = (name: string): name is Entity => ENTITIES.includes(name);

/** The recorded records of an entity (the QueryResponse list of its query fixture). */
export function recordedRecords(entity: Entity): Json[] {
  const response = fixture(`query/${entity}.json`).QueryResponse;
  const list = isJson(response) ? response[entity] : undefined;
  return Array.isArray(list) ? list.filter(isJson) : [];
}

/** The Fault of faults/<name>.json with its message and detail replaced when given. */
export function faultBody(name: string, detail?: string, element?: string): Json {
  const body = fixture(`faults/${name}.json`);
  const fault = body.Fault;
  if (detail !== undefined && isJson(fault) && Array.isArray(fault.Error) && isJson(fault.Error[0])) {
    const error = fault.Error[0];
    error.Detail = detail;
    if (element !== undefined) error.element = element;
  }
  return body;
}

/**
 * Bills of the recorded shape (bill 108: one account-based line) in bulk, so
 * that a read needs more than one 1,000-record page. Ids from 5001, dated
 * through 2015, last changed long before any test runs.
 */
export function generatedBills(count: number): Json[] {
  const [template] = recordedRecords('Bill').filter((b) => b.Id === '108');
  if (template === undefined) throw new Error('the Bill fixture lost bill 108');
  const vendors = [
    ['46', 'Norton Lumber and Building Materials'],
    ['56', "Bob's Burger Joint"],
    ['30', 'Books by Bessie'],
  ] as const;
  return Array.from({ length: count }, (_, i) => {
    const bill = structuredClone(template);
    const [vendorId, vendorName] = vendors[i % vendors.length] ?? vendors[0];
    const amount = 10 + i;
    const day = new Date(Date.UTC(2015, 0, 1 + (i % 360)));
    bill.Id = String(5001 + i);
    bill.DocNumber = `GEN-${i + 1}`;
    bill.PrivateNote = `Generated bill ${i + 1}`;
    bill.VendorRef = { value: vendorId, name: vendorName };
    bill.TxnDate = day.toISOString().slice(0, 10);
    bill.DueDate = new Date(day.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    bill.TotalAmt = amount;
    bill.Balance = amount;
    bill.Line = [
      {
        DetailType: 'AccountBasedExpenseLineDetail',
        Amount: amount,
        Id: '1',
        AccountBasedExpenseLineDetail: { AccountRef: { value: '7', name: 'Advertising' }, BillableStatus: 'NotBillable' },
      },
    ];
    bill.MetaData = { CreateTime: '2015-05-01T08:00:00-07:00', LastUpdatedTime: '2015-05-01T08:00:00-07:00' };
    return bill;
  });
}

const FILE_HEADERS: Readonly<Record<string, readonly number[]>> = {
  'image/jpeg': [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'application/pdf': [...Buffer.from('%PDF-1.4\n')],
};

/**
 * The file of a seeded attachable: as many bytes as its Size says (1 KiB without one), the magic number of its
 * ContentType, then bytes of the kit's generator seeded with its Id. The same Id always gives the same file.
 */
export function attachableFile(record: Json): Buffer {
  const size = typeof record.Size === 'number' && Number.isInteger(record.Size) && record.Size >= 0 ? record.Size : 1024;
  const header = FILE_HEADERS[typeof record.ContentType === 'string' ? record.ContentType : ''] ?? [];
  // FNV-1a of the Id is the seed.
  let seed = 0x811c9dc5;
  for (const char of String(record.Id)) seed = Math.imul(seed ^ char.charCodeAt(0), 0x01000193) >>> 0;
  const random = seededRandom(seed);
  const content = Buffer.alloc(size);
  for (let i = 0; i < size; i++) content[i] = header[i] ?? random.int(256);
  return content;
}
