/**
 * XERO's simulator: SANDBOX's books served as Xero's Accounting API (api.xro/2.0) and its identity API's
 * GET /connections, for the calls the Xero connector (src/platforms/xero) makes. The kit has checked the bearer token;
 * the organisation is the `xero-tenant-id` header, and any other than the grant's is refused 403 as Xero does.
 */
import { sandboxInvoicePdf } from '../../invoice-pdf.ts';
import type { PlatformSimulator, SimulatorAnswer, SimulatorGrant, SimulatorRequest } from '../kit.ts';
import { pathSegments } from '../lists.ts';
import { monthEnds } from '../statement-columns.ts';
import { hashedUuid, idOfUuid } from '../uuid-ids.ts';
import { envelope, forbidden, notFound } from './answers.ts';
import { attachmentFile, attachmentList } from './attachments.ts';
import { COLLECTIONS, isListName } from './collections.ts';
import { listAnswer, oneAnswer } from './lists.ts';
import { renderConnections, renderOrganisation } from './render-organisation.ts';
import { balanceSheetReport, profitAndLossReport } from './render-reports.ts';
import { XeroView } from './view.ts';
import { saveRecords, WRITABLE_LISTS, type WritableList } from './writes.ts';

const ACCOUNTING = '/api.xro/2.0/';
const WRITABLE = new Set<string>(WRITABLE_LISTS);
const isWritable = (name: string): name is WritableList => WRITABLE.has(name);

/** Xero's path segments are case-insensitive: the collection's own spelling, or undefined. */
function collectionName(segment: string | undefined): string | undefined {
  const lower = (segment ?? '').toLowerCase();
  return [...Object.keys(COLLECTIONS), 'Organisation', 'Reports'].find((name) => name.toLowerCase() === lower);
}

const monthEndOfToday = (): string => monthEnds(new Date().toISOString(), 1)[0] ?? '';

const periodsOf = (query: URLSearchParams): number => Math.min(11, Math.max(0, Number(query.get('periods') ?? '0') || 0));

async function report(view: XeroView, name: string | undefined, query: URLSearchParams): Promise<SimulatorAnswer> {
  const company = (await view.company())?.TradingName ?? view.books.company.name;
  if (name?.toLowerCase() === 'balancesheet') {
    const sheets = await view.all('balance_sheet');
    return envelope('Reports', [balanceSheetReport(sheets, company, query.get('date') ?? monthEndOfToday(), periodsOf(query))]);
  }
  if (name?.toLowerCase() === 'profitandloss') {
    const statements = await view.all('income_statement');
    const from = query.get('fromDate') ?? `${monthEndOfToday().slice(0, 8)}01`;
    return envelope('Reports', [profitAndLossReport(statements, company, from, periodsOf(query))]);
  }
  return notFound();
}

/** Whether the request asks for a PDF rather than JSON (Xero's GET /Invoices/{InvoiceID} with Accept: application/pdf). */
const asksForPdf = (request: SimulatorRequest): boolean => (request.headers.accept ?? '').toLowerCase().includes('application/pdf');

/** SANDBOX's rendering of one of its invoices, as Xero serves its own; a bill or an unknown id is Xero's 404. */
async function invoicePdf(view: XeroView, invoiceXeroId: string): Promise<SimulatorAnswer> {
  const id = idOfUuid(invoiceXeroId);
  const invoice = id === null ? undefined : (await view.all('invoice')).find((i) => i.Id === id);
  if (invoice === undefined) return notFound();
  return { status: 200, headers: { 'content-type': 'application/pdf' }, body: new Uint8Array(sandboxInvoicePdf(invoice)) };
}

async function accounting(request: SimulatorRequest, grant: SimulatorGrant, segments: string[]): Promise<SimulatorAnswer> {
  const view = new XeroView(grant.books);
  const [first, second, third, fourth, ...rest] = segments;
  const name = collectionName(first);
  if (name === undefined || rest.length > 0) return notFound();
  const { method, query } = request;
  if (name === 'Organisation' && method === 'GET' && second === undefined)
    return envelope('Organisations', [renderOrganisation(grant.tenantId, grant.books, await view.company())]);
  if (name === 'Reports' && method === 'GET' && third === undefined) return report(view, second, query);
  if (!isListName(name)) return notFound();
  const collection = COLLECTIONS[name];
  if (method === 'GET' && second === undefined) return listAnswer(name, await collection.records(view, query), request);
  if (method === 'GET' && third === undefined && second !== undefined) {
    if (name === 'Invoices' && asksForPdf(request)) return invoicePdf(view, second);
    return oneAnswer(name, collection.idField, await collection.records(view, new URLSearchParams('includeArchived=true')), second, notFound);
  }
  if (
    method === 'GET' &&
    third?.toLowerCase() === 'attachments' &&
    second !== undefined &&
    (name === 'Invoices' || name === 'ManualJournals' || name === 'BankTransfers')
  ) {
    const parentId = idOfUuid(second);
    if (parentId === null) return notFound();
    const parentPath = `/${name}/${second}`;
    return fourth === undefined ? attachmentList(view, parentPath, parentId) : attachmentFile(view, parentId, fourth);
  }
  if (isWritable(name) && third === undefined && (method === 'PUT' || method === 'POST')) {
    return saveRecords(grant.books, name, request, second ?? null, method === 'PUT' && second === undefined);
  }
  return notFound();
}

export const xeroSimulator: PlatformSimulator = {
  platform: 'XERO',
  name: 'Xero',
  oauth: { authorizePath: '/identity/connect/authorize', tokenPath: '/connect/token', accessTokenSeconds: 1800 },
  tenantId: (accountKey) => hashedUuid(`xero-tenant:${accountKey}`),
  async handle(request, grant) {
    if (/^\/connections\/?$/i.test(request.path) && request.method === 'GET') {
      const view = new XeroView(grant.books);
      return { status: 200, body: renderConnections(grant.tenantId, grant.books, await view.company()) };
    }
    if (!request.path.startsWith(ACCOUNTING)) return notFound();
    if ((request.headers['xero-tenant-id'] ?? '').toLowerCase() !== grant.tenantId.toLowerCase()) return forbidden();
    return accounting(request, grant, pathSegments(request.path.slice(ACCOUNTING.length)));
  },
};
