/**
 * QUICKBOOKS simulated: SANDBOX's books served as the QuickBooks Online Accounting API (v3, JSON) under
 * /v3/company/{realmId}/ — query, ChangeDataCapture, reads by id, CompanyInfo, Preferences, the BalanceSheet,
 * ProfitAndLoss and CashFlow reports, invoice PDFs, attachment downloads, and writes of bills, invoices (and their void),
 * journal entries, sales receipts, items, customers and vendors. Shapes follow Intuit's API reference as recorded in test/fixtures/quickbooks.
 */
import type { PlatformSimulator, SimulatorAnswer, SimulatorGrant, SimulatorRequest } from '../kit.ts';
import { pathSegments } from '../lists.ts';
import { companyInfo, preferences } from './company.ts';
import { answerQuery, changeDataCapture, entityOfResource, isWritable, type RenderContext } from './entities.ts';
import { fault, forbidden, notFound, unsupported } from './faults.ts';
import { download, file, LINK_TOKEN_PARAM } from './files.ts';
import { isReportName, report, ReportError } from './reports.ts';
import { ok, qboTime, realmIdOf, sandboxId } from './shapes.ts';
import { write } from './writes.ts';
import { sandboxInvoicePdf } from '../../invoice-pdf.ts';

/** GET invoice/{id}/pdf: SANDBOX's rendering of the invoice (the one its own connector serves), as QBO answers a PDF. */
async function invoicePdf(books: SimulatorGrant['books'], id: string): Promise<SimulatorAnswer> {
  const found = sandboxId('invoice', id);
  const record = found === null ? null : await books.get('invoice', found);
  if (record === null) return notFound('Invoice', id);
  return { status: 200, headers: { 'content-type': 'application/pdf' }, body: sandboxInvoicePdf(record) };
}

async function companyCall(request: SimulatorRequest, grant: SimulatorGrant, rest: string[]): Promise<SimulatorAnswer> {
  const { books } = grant;
  const ctx: RenderContext = { realmId: grant.tenantId, home: books.company.currency };
  const [resource = '', id, ...extra] = rest;
  const where = `${resource}${id === undefined ? '' : `/${id}`}`;
  if (request.method === 'POST') {
    const entity = id === undefined ? entityOfResource(resource) : undefined;
    return entity === undefined || !isWritable(entity) ? unsupported('POST', where) : write(books, entity, request.body, request.query, ctx);
  }
  if (request.method === 'GET' && resource === 'invoice' && id !== undefined && extra.join('/') === 'pdf') return invoicePdf(books, id);
  if (request.method !== 'GET' || extra.length > 0) return unsupported(request.method, rest.join('/'));
  if (resource === 'query' && id === undefined) return answerQuery(books, request.query.get('query') ?? '', ctx);
  if (resource === 'cdc' && id === undefined) return changeDataCapture(books, request.query, ctx);
  if (resource === 'preferences' && id === undefined) return ok({ Preferences: preferences(books, await books.all('currency')) });
  if (resource === 'companyinfo' && id !== undefined) {
    if (id !== grant.tenantId) return notFound('CompanyInfo', id);
    return ok({ CompanyInfo: companyInfo((await books.all('company_info'))[0], books) });
  }
  if (resource === 'reports' && id !== undefined && isReportName(id)) {
    try {
      // A report carries its time in its Header, not beside it.
      return { status: 200, body: await report(books, id, request.query, qboTime(Date.now())) };
    } catch (error) {
      if (error instanceof ReportError)
        return fault(400, 'ValidationFault', '2020', 'Required param missing, need to supply the required value for the API', error.message);
      throw error;
    }
  }
  if (resource === 'download' && id !== undefined) return download(grant, id);
  const entity = entityOfResource(resource);
  if (entity !== undefined && id !== undefined) {
    const record = await entity.get(books, id, ctx);
    return record === null ? notFound(entity.name, id) : ok({ [entity.name]: record });
  }
  return unsupported(request.method, rest.join('/'));
}

export const quickbooksSimulator: PlatformSimulator = {
  platform: 'QUICKBOOKS',
  name: 'QuickBooks Online',
  // The paths of appcenter.intuit.com/connect/oauth2 and oauth.platform.intuit.com/oauth2/v1/tokens/bearer (auth.ts).
  oauth: {
    authorizePath: '/connect/oauth2',
    tokenPath: '/oauth2/v1/tokens/bearer',
    accessTokenSeconds: 3600,
    callbackParams: (tenantId) => ({ realmId: tenantId }),
  },
  tenantId: realmIdOf,
  // Presigned file links are fetched without the bearer token: the kit lets them in by this parameter's link token.
  links: { tokenParam: LINK_TOKEN_PARAM, pathPrefix: '/attachments/' },
  async handle(request, grant) {
    const parts = pathSegments(request.path);
    if (parts[0] === 'v3' && parts[1] === 'company' && parts[2] !== undefined) {
      if (parts[2] !== grant.tenantId) return forbidden(parts[2]);
      return companyCall(request, grant, parts.slice(3));
    }
    if (parts[0] === 'attachments' && request.method === 'GET') return file(grant, parts.slice(1), request.query);
    return fault(404, 'ValidationFault', '610', 'Object Not Found', `QuickBooks Online has no ${request.method} ${request.path}`);
  },
};
