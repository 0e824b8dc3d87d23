/**
 * GET /commerce/metrics/:metricName: a commerce metric of the reference's list, per month and currency, computed from
 * the stored orders (./formulas.ts); the answer carries the metric under its own name, `checkpoint` (when the orders
 * were last synced) and `connection`, nothing else, as the reference's does.
 */
import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { assertEntityRead } from '../../../connections/entity-readiness.ts';
import { boundedRead } from '../../../db/bounded-read.ts';
import { commerceOrderMonths } from '../../../sql/commerce-order-months.ts';
import { ForceFetchSchema, READ_ERRORS, readableConnection } from '../../data/read.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';
import { COMMERCE_METRIC_NAMES, isCommerceMetricName, monthlyCommerceMetric } from './formulas.ts';

const MetricValueSchema = Type.Object(
  {
    start_date: Type.String({ format: 'date-time', description: 'First day of the month (UTC).' }),
    end_date: Type.String({ format: 'date-time', description: 'Last day of the month (UTC).' }),
    currency: Type.String({ description: 'Currency of the orders this value covers.' }),
    value: Type.String({ description: 'Decimal text: counts whole, amounts four places, refund_rate a fraction (0.2500 is 25%).' }),
  },
  { additionalProperties: false },
);

export const contract = defineContract({
  method: 'GET',
  url: '/commerce/metrics/:metricName',
  auth: 'client',
  tags: ['metrics'],
  summary: 'Fetch a commerce metric',
  description: `Month by month and per currency from the stored orders. Computed: ${COMMERCE_METRIC_NAMES.join(', ')}.`,
  params: Type.Object({
    metricName: Type.String({ minLength: 1, maxLength: 100, description: `One of ${COMMERCE_METRIC_NAMES.join(', ')}.` }),
  }),
  querystring: Type.Object({ access_token: Type.Optional(Type.String()), force_fetch: ForceFetchSchema }),
  success: {
    status: 200,
    schema: Type.Object({
      checkpoint: Type.String({ format: 'date-time', description: 'When the orders it is computed from were last synced.' }),
      ...Object.fromEntries(COMMERCE_METRIC_NAMES.map((name) => [name, Type.Optional(Type.Array(MetricValueSchema))])),
      connection: ConnectionRefSchema,
    }),
  },
  errors: [...READ_ERRORS, 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  const { metricName } = request.params;
  if (!isCommerceMetricName(metricName)) {
    throw new ServiceError(
      'VALIDATION_ERROR',
      `\`metricName\` ${metricName} is not a metric this service computes; use one of ${COMMERCE_METRIC_NAMES.join(', ')}.`,
      { source: 'service', field: 'metricName', location: 'params' },
    );
  }
  const forceFetch = request.query.force_fetch === 'true';
  const connection = await readableConnection(request, 'order', request.query.access_token, forceFetch);
  const { pool, config } = request.server.services;
  const months = await boundedRead(pool, config.readLimits.statementTimeoutMs, { field: 'metricName', location: 'params' }, (db) =>
    commerceOrderMonths(db, connection.id),
  );
  if (months.length === 0) await assertEntityRead(pool, connection, 'order', forceFetch);
  const synced = months.map((row) => row.last_synced_at.getTime());
  return {
    checkpoint: new Date(synced.length === 0 ? Date.now() : Math.max(...synced)).toISOString(),
    [metricName]: monthlyCommerceMetric(metricName, months),
    connection: connectionRef(connection),
  };
});
