import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser, sessionEnvironment } from '../../../http/session-auth.ts';
import { Nullable } from '../../../model/shared.ts';
import { CONNECTION_STATUSES } from '../../../connections/types.ts';
import { connectionCountsByStatus } from '../../../sql/dashboard-connection-counts.ts';
import {
  connectionsNeedingReauth,
  latestFailedDeliveries,
  latestFailedSyncRuns,
  latestFailedWriteJobs,
} from '../../../sql/dashboard-latest-errors.ts';
import { boundedInteger, ConnectionRefSchema } from './schemas.ts';

const DEFAULT_ERRORS = 5;

const At = Type.String({ format: 'date-time', description: 'When it failed (or was last changed).' });

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/overview',
  auth: 'session',
  tags: ['Dashboard'],
  summary: "The overview of the session's organisation in its environment: connections by status and the latest errors, newest first.",
  querystring: Type.Object({
    errors: boundedInteger(`How many of each kind of error, 1 to 20; default ${DEFAULT_ERRORS}.`, 1, 20),
  }),
  success: {
    status: 200,
    schema: Type.Object({
      environment: Type.String(),
      connections_by_status: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Every status, 0 included.' }),
      latest_errors: Type.Object({
        sync_runs: Type.Array(
          Type.Object({ id: Type.String(), connection: ConnectionRefSchema, kind: Type.String(), error: Nullable(Type.String()), at: At }),
        ),
        webhook_deliveries: Type.Array(
          Type.Object({
            id: Type.String(),
            connection_id: Nullable(Type.String()),
            connection: Nullable(ConnectionRefSchema, 'The connection the event was about; null for an organisation-wide event.'),
            code: Type.String(),
            attempts: Type.Integer(),
            last_status_code: Nullable(Type.Integer()),
            last_error: Nullable(Type.String()),
            at: At,
          }),
        ),
        write_jobs: Type.Array(
          Type.Object({
            id: Type.String(),
            connection_id: Type.String(),
            connection: ConnectionRefSchema,
            object_type: Type.String(),
            operation: Type.String(),
            error: Nullable(Type.String()),
            at: At,
          }),
        ),
        needs_reauth: Type.Array(Type.Object({ connection: ConnectionRefSchema, at: At })),
      }),
    }),
  },
  errors: ['VALIDATION_ERROR', 'SESSION_REQUIRED', 'RATE_LIMIT_EXCEEDED'],
});

export default defineEndpoint(contract, async (request) => {
  const user = requireDashboardUser(request);
  const environment = sessionEnvironment(request);
  const { pool } = request.server.services;
  const limit = request.query.errors ?? DEFAULT_ERRORS;
  const org = user.organizationId;
  const [counts, syncRuns, deliveries, writeJobs, reauth] = await Promise.all([
    connectionCountsByStatus(pool, org, environment),
    latestFailedSyncRuns(pool, org, environment, limit),
    latestFailedDeliveries(pool, org, environment, limit),
    latestFailedWriteJobs(pool, org, environment, limit),
    connectionsNeedingReauth(pool, org, environment, limit),
  ]);
  return {
    environment,
    connections_by_status: Object.fromEntries(CONNECTION_STATUSES.map((status) => [status, counts.get(status) ?? 0])),
    latest_errors: {
      sync_runs: syncRuns.map((r) => ({
        id: r.id,
        connection: { id: r.connection_id, name: r.connection_name, platform: r.platform, store_name: r.store_name },
        kind: r.kind,
        error: r.error,
        at: r.at.toISOString(),
      })),
      webhook_deliveries: deliveries.map((d) => ({
        id: d.id,
        connection_id: d.connection_id,
        connection:
          d.connection_id === null ? null : { id: d.connection_id, name: d.connection_name, platform: d.platform, store_name: d.store_name },
        code: d.code,
        attempts: d.attempts,
        last_status_code: d.last_status_code,
        last_error: d.last_error,
        at: d.at.toISOString(),
      })),
      write_jobs: writeJobs.map((w) => ({
        id: w.id,
        connection_id: w.connection_id,
        connection: { id: w.connection_id, name: w.connection_name, platform: w.platform, store_name: w.store_name },
        object_type: w.object_type,
        operation: w.operation,
        error: w.error,
        at: w.at.toISOString(),
      })),
      needs_reauth: reauth.map((c) => ({
        connection: { id: c.id, name: c.name, platform: c.platform, store_name: c.store_name },
        at: c.at.toISOString(),
      })),
    },
  };
});
