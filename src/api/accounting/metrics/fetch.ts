/**
 * GET /accounting/metrics/:metricName: a metric of the reference's list, month by month, computed from the stored
 * monthly income statements (./formulas.ts); the answer carries the metric under its own name, `checkpoint` (when the
 * statements were last synced) and `connection`, nothing else, as the reference's does.
 */
import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { assertEntityRead } from '../../../connections/entity-readiness.ts';
import { presenterOf, served } from '../../../store/served.ts';
import { listPage } from '../../data/list-query.ts';
import { ForceFetchSchema, READ_ERRORS, readableConnection } from '../../data/read.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';
import { isMetricName, METRIC_NAMES, monthlyMetric } from './formulas.ts';

const MetricValueSchema = Type.Object(
  {
    start_date: Type.String({ format: 'date-time', description: 'First day of the month.' }),
    end_date: Type.String({ format: 'date-time', description: 'Last day of the month.' }),
    currency: Type.String({ description: 'Currency of the statement.' }),
    value: Type.String({ description: 'Decimal text, four places; ratios as fractions (0.2500 is 25%).' }),
  },
  { additionalProperties: false },
);

/** Statements are monthly and kept for two years: one page holds them all. */
const STATEMENTS_PAGE = 500;

export const contract = defineContract({
  method: 'GET',
  url: '/accounting/metrics/:metricName',
  auth: 'client',
  tags: ['metrics'],
  summary: 'Fetch an accounting metric',
  description: `Month by month from the stored income statements. Computed: ${METRIC_NAMES.join(', ')}.`,
  params: Type.Object({ metricName: Type.String({ minLength: 1, maxLength: 100, description: `One of ${METRIC_NAMES.join(', ')}.` }) }),
  querystring: Type.Object({ access_token: Type.Optional(Type.String()), force_fetch: ForceFetchSchema }),
  success: {
    status: 200,
    schema: Type.Object({
      checkpoint: Type.String({ format: 'date-time', description: 'When the statements it is computed from were last synced.' }),
      ...Object.fromEntries(METRIC_NAMES.map((name) => [name, Type.Optional(Type.Array(MetricValueSchema))])),
      connection: ConnectionRefSchema,
    }),
  },
  errors: [...READ_ERRORS, 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  const { metricName } = request.params;
  if (!isMetricName(metricName)) {
    throw new ServiceError(
      'VALIDATION_ERROR',
      `\`metricName\` ${metricName} is not a metric this service computes; use one of ${METRIC_NAMES.join(', ')}.`,
      {
        source: 'service',
        field: 'metricName',
        location: 'params',
      },
    );
  }
  const forceFetch = request.query.force_fetch === 'true';
  const connection = await readableConnection(request, 'income_statement', request.query.access_token, forceFetch);
  const { pool, config } = request.server.services;
  const page = await listPage(pool, connection, 'income_statement', { limit: STATEMENTS_PAGE }, false, config.readLimits);
  if (page.rows.length === 0) await assertEntityRead(pool, connection, 'income_statement', forceFetch);
  const presenter = presenterOf(request.server.services);
  const statements = page.rows.map((row) => served('income_statement', row, false, presenter));
  const synced = page.rows.map((row) => row.last_synced_at.getTime());
  return {
    checkpoint: new Date(synced.length === 0 ? Date.now() : Math.max(...synced)).toISOString(),
    [metricName]: monthlyMetric(metricName, statements),
    connection: connectionRef(connection),
  };
});
