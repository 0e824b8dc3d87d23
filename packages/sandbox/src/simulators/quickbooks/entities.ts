/**
 * The QBO entities the simulator serves, each over one SANDBOX collection: its records in QBO's shape, one by QBO id,
 * and whether ChangeDataCapture covers it (Intuit leaves TaxRate, TaxAgency and TaxCode out); and the two list reads
 * over them, a query's page and ChangeDataCapture.
 */
import type { NativeOf, NativeType } from '../../native.ts';
import type { Body } from '../../writes/validate.ts';
import type { SimulatorAnswer, SimulatorBooks } from '../kit.ts';
import { companyCurrencies, exchangeRate } from './company.ts';
import { fault, queryError, required } from './faults.ts';
import { attachable } from './files.ts';
import {
  account,
  customer,
  customerBody,
  employee,
  item,
  paymentMethod,
  itemBody,
  taxAgency,
  taxCode,
  taxRate,
  term,
  trackingCategory,
  vendor,
  vendorBody,
} from './names.ts';
import { cdcRequest, cdcResponse, parseQuery, QueryError, queryResponse, runQuery, tombstone, updatedAt } from './query.ts';
import { entityMeta, ok, qboId, sandboxId, type Json } from './shapes.ts';
import * as txn from './transactions.ts';

export interface RenderContext {
  realmId: string;
  /** The company's home currency. */
  home: string;
}

export interface QboEntity {
  /** QBO's name, as in queries; lower-cased it is the REST resource. */
  name: string;
  /** The SANDBOX collection; null for entities that are not SANDBOX records of their own. */
  type: NativeType | null;
  cdc: boolean;
  all(books: SimulatorBooks, ctx: RenderContext): Promise<Json[]>;
  get(books: SimulatorBooks, id: string, ctx: RenderContext): Promise<Json | null>;
  /** How a POSTed record becomes a SANDBOX write body; name lists (customers, vendors, items) are made inactive, never deleted. */
  written?: {
    body(from: Json, create: boolean): Body;
    deletable: boolean;
    /** How QBO's reference voids the entity, and the SANDBOX status a void sets. */
    voids?: { how: 'operation=void' | 'include=void'; status: string };
  };
}

/** An entity the simulator writes. */
export type WritableEntity = QboEntity & { type: NativeType; written: NonNullable<QboEntity['written']> };

export const isWritable = (entity: QboEntity): entity is WritableEntity => entity.type !== null && entity.written !== undefined;

/** An entity rendering each record of one collection on its own, with QBO's bookkeeping fields. */
function collection<T extends NativeType>(name: string, type: T, render: (record: NativeOf[T], ctx: RenderContext) => Json): QboEntity {
  const rendered = (record: NativeOf[T], ctx: RenderContext): Json => ({ ...render(record, ctx), ...entityMeta(record) });
  return {
    name,
    type,
    cdc: true,
    all: async (books, ctx) => (await books.all(type)).map((r) => rendered(r, ctx)),
    async get(books, id, ctx) {
      const found = sandboxId(type, id);
      const record = found === null ? null : await books.get(type, found);
      return record === null ? null : rendered(record, ctx);
    },
  };
}

/** An entity that is not read by id (QBO's id endpoints of these are not used): get finds it among all. */
function listed(name: string, type: NativeType | null, all: QboEntity['all']): QboEntity {
  return {
    name,
    type,
    cdc: false,
    all,
    get: async (books, id, ctx) => (await all(books, ctx)).find((r) => r.Id === id) ?? null,
  };
}

/** The SANDBOX ids of the credit card accounts. */
async function cardAccounts(books: SimulatorBooks): Promise<ReadonlySet<string>> {
  return new Set((await books.all('account')).filter((a) => a.Type === 'CreditCard').map((a) => a.Id));
}

export const ENTITIES: readonly QboEntity[] = [
  collection('Account', 'account', account),
  { ...collection('Vendor', 'vendor', vendor), written: { body: vendorBody, deletable: false } },
  { ...collection('Customer', 'customer', customer), written: { body: customerBody, deletable: false } },
  { ...collection('Item', 'item', item), written: { body: itemBody, deletable: false } },
  collection('Term', 'payment_term', term),
  collection('PaymentMethod', 'payment_method', paymentMethod),
  collection('Class', 'class', (r) => trackingCategory('Class', r)),
  collection('Department', 'department', (r) => trackingCategory('Department', r)),
  collection('Employee', 'employee', employee),
  { ...collection('TaxRate', 'tax_rate', taxRate), cdc: false },
  { ...collection('TaxCode', 'tax_rate', taxCode), cdc: false },
  {
    ...collection('TaxAgency', 'tax_agency', (r) => taxAgency(r, [])),
    cdc: false,
    // Whether an agency taxes sales or purchases is told by the tax codes' components.
    all: async (books) => {
      const codes = await books.all('tax_rate');
      return (await books.all('tax_agency')).map((r) => ({ ...taxAgency(r, codes), ...entityMeta(r) }));
    },
  },
  { ...collection('Bill', 'bill', txn.bill), written: { body: txn.billBody, deletable: true } },
  { ...collection('VendorCredit', 'bill_credit_memo', txn.vendorCredit), written: { body: txn.vendorCreditBody, deletable: true } },
  {
    ...collection('BillPayment', 'bill_payment', txn.billPayment),
    // Whether a payment is a check or a card payment is told by the type of the account it was paid from.
    all: async (books, ctx) => {
      const render = txn.billPaymentFrom(await cardAccounts(books));
      return (await books.all('bill_payment')).map((r) => ({ ...render(r, ctx), ...entityMeta(r) }));
    },
    async get(books, id, ctx) {
      const found = sandboxId('bill_payment', id);
      const record = found === null ? null : await books.get('bill_payment', found);
      return record === null ? null : { ...txn.billPaymentFrom(await cardAccounts(books))(record, ctx), ...entityMeta(record) };
    },
    written: { body: txn.billPaymentBody, deletable: true, voids: { how: 'include=void', status: 'Voided' } },
  },
  {
    ...collection('Invoice', 'invoice', txn.invoice),
    written: { body: txn.invoiceBody, deletable: true, voids: { how: 'operation=void', status: 'Void' } },
  },
  collection('CreditMemo', 'invoice_credit_memo', txn.creditMemo),
  {
    ...collection('Payment', 'invoice_payment', txn.payment),
    written: { body: txn.paymentBody, deletable: true, voids: { how: 'include=void', status: 'Voided' } },
  },
  { ...collection('SalesReceipt', 'sales_receipt', txn.salesReceipt), written: { body: txn.salesReceiptBody, deletable: false } },
  collection('Deposit', 'bank_deposit', txn.deposit),
  collection('Transfer', 'bank_transfer', txn.transfer),
  { ...collection('JournalEntry', 'journal_entry', txn.journalEntry), written: { body: txn.journalEntryBody, deletable: true } },
  { ...collection('Purchase', 'expense', txn.purchase), written: { body: txn.purchaseBody, deletable: true } },
  collection('Attachable', 'attachment', (r, ctx) => attachable(r, ctx.realmId)),
  listed('CompanyCurrency', 'currency', async (books, ctx) => companyCurrencies(await books.all('currency'), ctx.home)),
  listed('ExchangeRate', 'exchange_rate', async (books, ctx) =>
    (await books.all('exchange_rate')).filter((r) => r.TargetCurrencyCode === ctx.home).map(exchangeRate),
  ),
];

const BY_NAME = new Map(ENTITIES.map((e) => [e.name, e]));
const BY_RESOURCE = new Map(ENTITIES.map((e) => [e.name.toLowerCase(), e]));

export const entityNamed = (name: string): QboEntity | undefined => BY_NAME.get(name);
export const entityOfResource = (resource: string): QboEntity | undefined => BY_RESOURCE.get(resource.toLowerCase());
const isEntityName = (name: string): name is string => BY_NAME.has(name);

/** GET query?query=SELECT * FROM <Entity> …: one page of an entity, as QBO's QueryResponse. */
export async function answerQuery(books: SimulatorBooks, text: string, ctx: RenderContext): Promise<SimulatorAnswer> {
  try {
    const query = parseQuery(text, isEntityName);
    const entity = entityNamed(query.entity);
    if (entity === undefined) throw new QueryError(`unknown entity "${query.entity}"`);
    return ok({ QueryResponse: queryResponse(entity.name, runQuery(query, await entity.all(books, ctx)), query.startPosition) });
  } catch (error) {
    if (error instanceof QueryError) return queryError(error.message, text);
    throw error;
  }
}

const MAX_OBJECTS = 1000;

/**
 * GET cdc?entities=A,B&changedSince=…: what changed since then, per entity, with deleted records as tombstones
 * (`status: "Deleted"`). QBO looks back 30 days at most, answers at most 1,000 objects, and leaves TaxRate, TaxAgency
 * and the other lists outside CDC out.
 */
export async function changeDataCapture(books: SimulatorBooks, query: URLSearchParams, ctx: RenderContext): Promise<SimulatorAnswer> {
  const request = cdcRequest(query, Date.now());
  if ('refused' in request)
    return request.refused === 'missing'
      ? required(request.element, request.detail)
      : fault(400, 'ValidationFault', '2010', 'Request has invalid or unsupported property', request.detail, request.element);
  const responses: Json[] = [];
  let room = MAX_OBJECTS;
  for (const name of request.entities) {
    const entity = entityNamed(name);
    if (entity?.type === undefined || entity.type === null || !entity.cdc) {
      return fault(400, 'ValidationFault', '500', 'Unsupported Operation', `ChangeDataCapture does not cover ${name}`);
    }
    const changed = (await entity.all(books, ctx)).filter((r) => updatedAt(r) >= request.since);
    const gone = (await books.deleted(entity.type))
      .filter((d) => Date.parse(d.deletedAt) >= request.since)
      .map((d) => tombstone(qboId(d.id), d.deletedAt));
    const all = [...changed, ...gone].slice(0, room);
    room -= all.length;
    responses.push(queryResponse(entity.name, all));
  }
  return ok(cdcResponse(responses));
}
