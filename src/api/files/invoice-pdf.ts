/**
 * GET /files/invoice-pdfs/:id: the PDF behind an invoice's `pdf_link` (GET /accounting/invoices/:id/pdf), signed and
 * valid for an hour. The id is `<connection id>.<invoice id>`; the PDF comes from the connector now (the platform's
 * own, or SANDBOX's rendering of its invoice), never kept by the service.
 */
import { Type } from 'typebox';
import { PLATFORM_FILE_ERRORS } from './platform-file.ts';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { callPlatformLive } from '../../platforms/live-call.ts';
import { getConnector } from '../../platforms/index.ts';
import { findConnectionForService } from '../../sql/connections.ts';
import { fetchRecord } from '../../sql/list-records.ts';
import { assertSigned, SignedQuery } from './signed-access.ts';

const DOWNLOAD_TIMEOUT_MS = 60_000;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export const contract = defineContract({
  method: 'GET',
  url: '/files/invoice-pdfs/:id',
  auth: 'none',
  tags: ['invoices'],
  summary: "Download an invoice's PDF through the signed pdf_link of GET /accounting/invoices/:id/pdf (valid for one hour).",
  params: Type.Object({ id: Type.String({ pattern: `^${UUID}\\.${UUID}$` }) }),
  querystring: SignedQuery,
  success: {
    status: 200,
    contentType: 'application/pdf',
    schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The PDF of the invoice.' }),
  },
  errors: [...PLATFORM_FILE_ERRORS],
});

const gone = (why: string): ServiceError => new ServiceError('RESOURCE_NOT_FOUND', why, { source: 'service' });

export default defineEndpoint(contract, async (request, reply) => {
  const { id } = request.params;
  const { services } = request.server;
  assertSigned(services, 'invoice-pdf', id, request.query, 'pdf_link');
  const [connectionId = '', invoiceId = ''] = id.split('.');
  const connection = await findConnectionForService(services.pool, connectionId);
  const connector = connection?.platform === null || connection === null ? undefined : getConnector(connection.platform);
  const render = connector?.actions?.invoicePdf;
  if (connection === null || connector === undefined || render === undefined)
    throw gone('The connection of this invoice no longer exists or has no PDFs.');
  const invoice = await fetchRecord(services.pool, connection.id, 'invoice', 'service', invoiceId, true);
  if (invoice === null) throw gone('This invoice no longer exists on the connection.');
  const pdf = await callPlatformLive(services, connection, connector, DOWNLOAD_TIMEOUT_MS, (ctx) =>
    render(ctx, { platformId: typeof invoice.data.platform_id === 'string' ? invoice.data.platform_id : '', raw: invoice.raw ?? {} }),
  );
  void reply
    .header('content-type', pdf.contentType)
    .header('content-disposition', `inline; filename="invoice-${invoiceId}.pdf"`)
    .header('cache-control', 'private, max-age=300');
  return pdf.content;
});
