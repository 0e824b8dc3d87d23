import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser, sessionEnvironment } from '../../../http/session-auth.ts';
import { deliveriesPerHour } from '../../../sql/dashboard-delivery-stats.ts';
import { retryingDeliveries } from '../../../sql/dashboard-retrying-deliveries.ts';
import { Nullable } from '../../../model/shared.ts';
import { boundedInteger } from './schemas.ts';

const DEFAULT_HOURS = 24;
const HOUR_MS = 3_600_000;

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/webhooks/delivery_stats',
  auth: 'session',
  tags: ['Dashboard'],
  summary:
    "Webhook deliveries of the session's organisation and environment that finished (delivered or failed) per hour, oldest hour first, the current hour last.",
  querystring: Type.Object({
    hours: boundedInteger(`How many hours back, 1 to 168 (7 days); default ${DEFAULT_HOURS}.`, 1, 168),
  }),
  success: {
    status: 200,
    schema: Type.Object({
      hours: Type.Array(
        Type.Object({
          hour: Type.String({ format: 'date-time', description: 'Start of the hour (UTC).' }),
          delivered: Type.Integer({ minimum: 0 }),
          failed: Type.Integer({ minimum: 0 }),
        }),
      ),
      delivered: Type.Integer({ minimum: 0, description: 'Total over the hours.' }),
      failed: Type.Integer({ minimum: 0, description: 'Total over the hours.' }),
      retrying: Type.Object(
        {
          count: Type.Integer({ minimum: 0, description: 'Deliveries whose attempts failed so far and that are still retried (not given up yet).' }),
          last_error: Nullable(Type.String(), "The newest failed attempt's error among them, e.g. connect ECONNREFUSED."),
          last_status_code: Nullable(Type.Integer(), "The newest failed attempt's HTTP status among them, when the receiver answered."),
          since: Nullable(Type.String({ format: 'date-time' }), 'When the oldest of them was created.'),
        },
        { description: 'Failing now but not counted as failed: the chart counts finished deliveries only.' },
      ),
    }),
  },
  errors: ['VALIDATION_ERROR', 'SESSION_REQUIRED', 'RATE_LIMIT_EXCEEDED'],
});

export default defineEndpoint(contract, async (request) => {
  const user = requireDashboardUser(request);
  const count = request.query.hours ?? DEFAULT_HOURS;
  const currentHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const since = new Date(currentHour - (count - 1) * HOUR_MS);
  const { pool } = request.server.services;
  const environment = sessionEnvironment(request);
  const rows = await deliveriesPerHour(pool, user.organizationId, environment, since);
  const retrying = await retryingDeliveries(pool, user.organizationId, environment);
  const byHour = new Map(rows.map((row) => [row.hour.getTime(), row]));
  // Every hour, the empty ones too: the chart's x axis is time, not just the hours that had deliveries.
  const hours = Array.from({ length: count }, (_, i) => {
    const start = since.getTime() + i * HOUR_MS;
    const row = byHour.get(start);
    return { hour: new Date(start).toISOString(), delivered: row?.delivered ?? 0, failed: row?.failed ?? 0 };
  });
  return {
    hours,
    delivered: hours.reduce((sum, h) => sum + h.delivered, 0),
    failed: hours.reduce((sum, h) => sum + h.failed, 0),
    retrying: {
      count: retrying.retrying,
      last_error: retrying.last_error,
      last_status_code: retrying.last_status_code,
      since: retrying.oldest_at === null ? null : retrying.oldest_at.toISOString(),
    },
  };
});
