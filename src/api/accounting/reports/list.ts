/**
 * GET /accounting/reports (reference: ListReports, "Fetch a Financial Report"): the connection's financial report, a
 * download of its company info and stored financial statements, as a signed address of ours valid for an hour
 * (./financial-report.ts). `report` is null while the connection has no company info stored; platforms without
 * balance sheets (commerce and payment platforms) answer 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { assertEntityRead } from '../../../connections/entity-readiness.ts';
import { signedUrl } from '../../../files/signed-url.ts';
import { MODEL } from '../../../model/index.ts';
import { ForceFetchSchema, READ_ERRORS, readableConnection } from '../../data/read.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';
import { storedCompanyInfo } from './financial-report.ts';

/**
 * Company info as GET /accounting/company_info serves it, with the reference's names of this answer beside ours (its
 * CompanyInfo of 2023-02-07: `base_currency_code`, `createdAt`, `updatedAt`; the same values).
 */
const CompanyInfoSchema: TSchema = Type.Object(
  {
    ...MODEL.company_info.schema.properties,
    base_currency_code: Type.Union([Type.String(), Type.Null()], { description: 'currency_code, under the reference name of this answer.' }),
    createdAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'created_at, under the reference name of this answer.',
    }),
    updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'updated_at, under the reference name of this answer.',
    }),
  },
  { additionalProperties: false },
);

function withReferenceNames(company: Record<string, unknown>): Record<string, unknown> {
  return {
    ...company,
    base_currency_code: company.currency_code ?? null,
    createdAt: company.created_at ?? null,
    updatedAt: company.updated_at ?? null,
  };
}

const ReportSchema = Type.Object(
  {
    expires_at: Type.String({ format: 'date-time', description: 'When report_url stops opening (an hour after this answer).' }),
    report_url: Type.String({
      format: 'uri',
      description: 'Signed address of the report (JSON: company_info, balance_sheets, income_statements, cash_flows).',
    }),
    company_info: CompanyInfoSchema,
  },
  { additionalProperties: false },
);

export const contract = defineContract({
  method: 'GET',
  url: '/accounting/reports',
  auth: 'client',
  tags: ['reports'],
  summary: "Fetch the connection's financial report",
  description:
    'A signed address, valid for an hour, of a download of the stored company info and every stored balance sheet, income statement and cash flow statement. TREE (default) keeps the row trees; FLAT lists the account rows only.',
  querystring: Type.Object({
    access_token: Type.Optional(Type.String()),
    filter: Type.Optional(
      Type.Union([Type.Literal('TREE'), Type.Literal('FLAT')], { description: 'Shape of the statements in the report: TREE (default) or FLAT.' }),
    ),
    force_fetch: ForceFetchSchema,
  }),
  success: {
    status: 200,
    schema: Type.Object({
      report: Type.Union([ReportSchema, Type.Null()], { description: 'null while the connection has no company info stored.' }),
      connection: ConnectionRefSchema,
    }),
  },
  errors: [...READ_ERRORS, 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  const { query } = request;
  const forceFetch = query.force_fetch === 'true';
  const connection = await readableConnection(request, 'balance_sheet', query.access_token, forceFetch);
  const { services } = request.server;
  const company = await storedCompanyInfo(services, connection);
  if (company === null) {
    await assertEntityRead(services.pool, connection, 'company_info', forceFetch);
    return { report: null, connection: connectionRef(connection) };
  }
  const signed = signedUrl(services.config.publicUrl, services.urlSigningKey, 'financial-report', `${connection.id}.${query.filter ?? 'TREE'}`);
  return {
    report: { expires_at: new Date(signed.expires * 1000).toISOString(), report_url: signed.url, company_info: withReferenceNames(company.object) },
    connection: connectionRef(connection),
  };
});
