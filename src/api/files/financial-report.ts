/**
 * GET /files/financial-reports/:id: the download behind a financial report's `report_url` (GET /accounting/reports),
 * signed and valid for an hour. The id is `<connection id>.<TREE|FLAT>`; the report is read from the stored copy now.
 */
import { Type, type TSchema } from 'typebox';
import { MODEL } from '../../model/index.ts';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { findConnectionForService } from '../../sql/connections.ts';
import { financialReport } from '../accounting/reports/financial-report.ts';
import { assertSigned, SignedQuery } from './signed-access.ts';

// Widened: each object as its own endpoint serves it (the model's schemas differ per type).
const schemaOf = (type: 'company_info' | 'balance_sheet' | 'income_statement' | 'cash_flow_statement'): TSchema => MODEL[type].schema;

const ReportDocumentSchema = Type.Object(
  {
    generated_at: Type.String({ format: 'date-time', description: 'When the report was read from the stored copy.' }),
    structure: Type.Union([Type.Literal('TREE'), Type.Literal('FLAT')]),
    company_info: Type.Union([schemaOf('company_info'), Type.Null()]),
    balance_sheets: Type.Array(schemaOf('balance_sheet'), { description: 'Newest month first.' }),
    income_statements: Type.Array(schemaOf('income_statement'), { description: 'Newest month first.' }),
    cash_flows: Type.Array(schemaOf('cash_flow_statement'), { description: 'Newest month first; empty where the platform has none (Xero).' }),
  },
  { additionalProperties: false, description: 'company_info and the statements as their endpoints serve them.' },
);

export const contract = defineContract({
  method: 'GET',
  url: '/files/financial-reports/:id',
  auth: 'none',
  tags: ['reports'],
  summary: "Download a connection's financial report through the signed report_url of GET /accounting/reports (valid for one hour).",
  params: Type.Object({ id: Type.String({ pattern: '^[0-9a-f-]{36}\\.(TREE|FLAT)$' }) }),
  querystring: SignedQuery,
  success: { status: 200, schema: ReportDocumentSchema },
  errors: ['VALIDATION_ERROR', 'INVALID_CREDENTIALS', 'RESOURCE_NOT_FOUND', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request, reply) => {
  const { id } = request.params;
  const { services } = request.server;
  assertSigned(services, 'financial-report', id, request.query, 'report_url');
  const [connectionId = '', structure] = id.split('.');
  const connection = await findConnectionForService(services.pool, connectionId);
  if (connection === null) throw new ServiceError('RESOURCE_NOT_FOUND', 'The connection of this report no longer exists.', { source: 'service' });
  void reply
    .header('content-disposition', `attachment; filename="financial-report-${connectionId}.json"`)
    .header('cache-control', 'private, max-age=300');
  return financialReport(services, connection, structure === 'FLAT' ? 'FLAT' : 'TREE');
});
