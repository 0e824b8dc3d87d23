/**
 * GET /accounting/invoices/:id/pdf (reference: FetchInvoicePdfLink): a signed address of ours, valid for an hour, of
 * the invoice's PDF (GET /files/invoice-pdfs/:id), where the connection's platform gives PDFs (the connector's
 * `invoicePdf`: SANDBOX renders its own invoices, QuickBooks Online and Xero serve their own); elsewhere 404
 * ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.
 */
import { Type } from 'typebox';
import { boundedRead } from '../../../db/bounded-read.ts';
import { assertEntityRead } from '../../../connections/entity-readiness.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { signedUrl } from '../../../files/signed-url.ts';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { getConnector } from '../../../platforms/index.ts';
import { fetchRecord } from '../../../sql/list-records.ts';
import { ForceFetchSchema, READ_ERRORS, readableConnection } from '../../data/read.ts';
import { refusePathWordAsServiceId } from '../../shared/record-id.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/accounting/invoices/:id/pdf',
  auth: 'client',
  tags: ['invoices'],
  summary: "Fetch a link to an invoice's PDF",
  description: 'A signed address, valid for an hour and needing no credentials, of the PDF of the invoice.',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 300, description: 'Service id of the invoice.' }) }),
  querystring: Type.Object({ access_token: Type.Optional(Type.String()), force_fetch: ForceFetchSchema }),
  success: {
    status: 200,
    schema: Type.Object({
      invoice: Type.Object(
        { pdf_link: Type.String({ format: 'uri', description: 'Signed address of the PDF, valid for an hour.' }) },
        { additionalProperties: false },
      ),
      connection: ConnectionRefSchema,
    }),
  },
  errors: [...READ_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  const { id } = request.params;
  refusePathWordAsServiceId(request, id);
  const forceFetch = request.query.force_fetch === 'true';
  const connection = await readableConnection(request, 'invoice', request.query.access_token, forceFetch);
  if (connection.platform !== null && getConnector(connection.platform)?.actions?.invoicePdf === undefined) {
    throw new ServiceError(
      'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
      `Invoice PDFs are not available on ${connection.platform}; see docs/platforms.md.`,
      { source: 'service' },
    );
  }
  const { services } = request.server;
  const invoice = await boundedRead(services.pool, services.config.readLimits.statementTimeoutMs, { field: 'id', location: 'params' }, (db) =>
    fetchRecord(db, connection.id, 'invoice', 'service', id, false),
  );
  if (invoice === null) {
    await assertEntityRead(services.pool, connection, 'invoice', forceFetch);
    throw new ServiceError('RESOURCE_NOT_FOUND', `No invoice with id ${id} in this connection.`, {
      source: 'service',
      field: 'id',
      location: 'params',
    });
  }
  const link = signedUrl(services.config.publicUrl, services.urlSigningKey, 'invoice-pdf', `${connection.id}.${invoice.id}`);
  return { invoice: { pdf_link: link.url }, connection: connectionRef(connection) };
});
