/**
 * DESKBOOKS: a desktop accounting program that calls us, in the manner of QuickBooks Desktop through Intuit's Web
 * Connector (docs/connectors.md, "Platforms that call us"). It speaks a subset of qbXML: CustomerQueryRq with an
 * iterator (pages) and FromModifiedDate (incremental reads), and CustomerAddRq (writes); its answers come back through
 * the Web Connector's receiveResponseXML. Written against the kit only: every platform call is
 * `ctx.polled.exchange(key, build)`, and the kit queues it, hands it out when the program calls and wakes the job with
 * the answer. The QuickBooks Desktop connector is this file with QuickBooks' objects and mapping.
 */
import type { Connector, ConnectorContext, PlatformRecord, ReadPage, WriteContext } from '../../../src/platforms/connector.ts';
import { PlatformError } from '../../../src/platforms/errors.ts';
import { isRecord } from '../../../src/platforms/json.ts';
import type { PolledExchange } from '../../../src/platforms/polled.ts';
import { buildXml, parseXml } from '../../../src/platforms/xml.ts';

export const DESKBOOKS = 'DESKBOOKS';
/** Customers per page: the iterator's MaxReturned. */
export const DESKBOOKS_PAGE_SIZE = 2;
const QBXML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?><?qbxml version="13.0"?>';

/** Lists in answers, even with one element (parseXml keeps a single element as an object otherwise). */
const ANSWER_ARRAYS = new Set(['QBXML.QBXMLMsgsRs.CustomerQueryRs.CustomerRet']);

function exchangeOf(ctx: ConnectorContext): PolledExchange {
  if (ctx.polled === undefined || ctx.polled === null) throw new Error('DESKBOOKS is reached only through its queue (ctx.polled)');
  return ctx.polled;
}

/** A qbXML request document with one request. */
export function qbxmlRequest(name: string, attributes: Record<string, string>, content: Record<string, unknown>): string {
  const attrs = Object.fromEntries(Object.entries(attributes).map(([key, value]) => [`@_${key}`, value]));
  return buildXml({ QBXML: { QBXMLMsgsRq: { '@_onError': 'stopOnError', [name]: { ...attrs, ...content } } } }, QBXML_DECLARATION);
}

/** The one answer element of a qbXML answer, after its status was checked. */
function answerOf(text: string, name: string): Record<string, unknown> {
  const parsed = parseXml(text, { arrays: ANSWER_ARRAYS });
  const messages = isRecord(parsed) && isRecord(parsed.QBXML) ? parsed.QBXML.QBXMLMsgsRs : undefined;
  const answer = isRecord(messages) ? messages[name] : undefined;
  if (!isRecord(answer)) throw new PlatformError({ kind: 'server', message: `DESKBOOKS answered without ${name}`, requestSent: true });
  const status = answer['@_statusCode'];
  // 0: done; 1: no record matched (an empty page); anything else is the program's refusal.
  if (status !== '0' && status !== '1') {
    const message = typeof answer['@_statusMessage'] === 'string' ? answer['@_statusMessage'] : `status ${String(status)}`;
    throw new PlatformError({ kind: 'bad_request', code: String(status), message, requestSent: true });
  }
  return answer;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function customerRecord(raw: Record<string, unknown>): PlatformRecord {
  const id = text(raw.ListID);
  if (id === null) throw new PlatformError({ kind: 'server', message: 'a CustomerRet without ListID', requestSent: true });
  return { platformId: id, raw };
}

/** A page token: the iterator the program keeps for a paged query (one id for all its pages), the page, and where the read started. */
interface PageToken {
  iteratorId: string;
  page: number;
  asOf: string;
}

function tokenOf(token: string | null): PageToken | null {
  if (token === null) return null;
  const parsed: unknown = JSON.parse(token);
  if (!isRecord(parsed) || typeof parsed.iteratorId !== 'string' || typeof parsed.page !== 'number' || typeof parsed.asOf !== 'string') {
    throw new Error('not a DESKBOOKS page token');
  }
  return { iteratorId: parsed.iteratorId, page: parsed.page, asOf: parsed.asOf };
}

async function readCustomers(ctx: ConnectorContext, since: string | null, pageToken: string | null): Promise<ReadPage> {
  const token = tokenOf(pageToken);
  // The key names the page within the run: a run that restarts finds the request (and answer) of its page again.
  const key = `customer:${since ?? 'full'}:${token === null ? 0 : token.page}`;
  const answer = await exchangeOf(ctx).exchange(key, (requestId) =>
    qbxmlRequest(
      'CustomerQueryRq',
      {
        requestID: requestId,
        ...(token === null ? { iterator: 'Start' } : { iterator: 'Continue', iteratorID: token.iteratorId }),
      },
      { MaxReturned: String(DESKBOOKS_PAGE_SIZE), ...(since === null || token !== null ? {} : { FromModifiedDate: since }) },
    ),
  );
  const rs = answerOf(answer, 'CustomerQueryRs');
  const list = Array.isArray(rs.CustomerRet) ? rs.CustomerRet.filter(isRecord) : [];
  const remaining = Number(rs['@_iteratorRemainingCount'] ?? '0');
  const iteratorId = text(rs['@_iteratorID']);
  // The program's own clock, from its answer: the next incremental read starts there.
  const asOf = token?.asOf ?? text(rs['@_asOf']) ?? new Date().toISOString();
  if (remaining > 0 && iteratorId !== null) {
    const next: PageToken = { iteratorId, page: (token?.page ?? 0) + 1, asOf };
    return { records: list.map(customerRecord), nextPageToken: JSON.stringify(next) };
  }
  return { records: list.map(customerRecord), nextPageToken: null, nextSince: asOf };
}

async function addCustomer(ctx: WriteContext, input: Record<string, unknown>): Promise<PlatformRecord> {
  const name = typeof input.customer_name === 'string' ? input.customer_name : '';
  const email = typeof input.email === 'string' ? input.email : null;
  // requestID: the program applies a request id once, so an add issued again after a lost answer makes no second customer.
  const answer = await exchangeOf(ctx).exchange('create', (requestId) =>
    qbxmlRequest('CustomerAddRq', { requestID: requestId }, { CustomerAdd: { Name: name, ...(email === null ? {} : { Email: email }) } }),
  );
  const rs = answerOf(answer, 'CustomerAddRs');
  if (!isRecord(rs.CustomerRet)) throw new PlatformError({ kind: 'server', message: 'CustomerAddRs without CustomerRet', requestSent: true });
  return customerRecord(rs.CustomerRet);
}

function mapCustomer(record: PlatformRecord): Record<string, unknown> {
  const raw = record.raw;
  return {
    platform_id: record.platformId,
    parent_id: null,
    payment_terms_id: null,
    subsidiary_id: null,
    status: raw.IsActive === 'false' ? 'archived' : 'active',
    contact_name: null,
    currency_code: null,
    customer_name: text(raw.Name),
    first_name: null,
    last_name: null,
    email: text(raw.Email),
    phone: null,
    registration_number: null,
    tax_number: null,
    subsidiaries: [],
    addresses: [],
    contacts: [],
    created_at: text(raw.TimeCreated),
    updated_at: text(raw.TimeModified),
    platform_url: null,
  };
}

export const deskbooksConnector: Connector = {
  id: DESKBOOKS,
  name: 'DeskBooks',
  kind: 'accounting',
  // Nothing to type: the link page hands out the .qwc file and its password instead (src/link/polled.ts).
  auth: { type: 'credentials', fields: [] },
  polled: {
    client: 'web-connector',
    file: { appName: 'Ledgerport (DeskBooks)', appDescription: 'Shares DeskBooks data with Ledgerport', qbType: 'QBFS', runEveryMinutes: 15 },
    answerCheckMs: 1_000,
  },
  // The program is not reachable until it calls: the connection is known by its own id until then.
  identify: (ctx) => Promise.resolve({ storeUniqueId: `deskbooks:${ctx.connectionId}`, storeName: 'DeskBooks company file' }),
  objects: {
    customer: {
      capabilities: {
        read: true,
        incremental: 'cursor',
        deletions: 'none',
        filter: true,
        fetchByPlatformId: true,
        create: true,
        update: false,
        delete: false,
      },
      handler: {
        read: (ctx, request) => readCustomers(ctx, request.since, request.pageToken),
        create: addCustomer,
        // Once the program had the add, the write is indeterminate until its answer is in: the same request, under the
        // same key, is the lookup (answered: its customer; not yet: the job keeps waiting; never twice: its requestID).
        findCreated: addCustomer,
        map: mapCustomer,
      },
    },
  },
  // The program calls us: no rate to keep on our side.
  limits: { requestsPerMinute: null, concurrentRequests: 1 },
  documentation: {
    testedAgainst: 'An in-test desktop program and Web Connector (test/connectors/deskbooks/desktop.ts) driving the real SOAP endpoint.',
  },
};
