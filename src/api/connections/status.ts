import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { latestSyncRuns } from '../../sql/sync-runs.ts';
import { Nullable, StringEnum } from '../../model/shared.ts';
import { AccessTokenQuery, ConnectionStatusSchema } from './schemas.ts';

const SyncRunSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: StringEnum(['initial', 'incremental', 'backfill'], 'Which sync.'),
  status: StringEnum(['queued', 'running', 'completed', 'failed', 'cancelled'], 'Where it is.'),
  error: Nullable(Type.String(), 'Why it failed.'),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Nullable(Type.String({ format: 'date-time' }), 'When it started.'),
  finished_at: Nullable(Type.String({ format: 'date-time' }), 'When it finished.'),
});

export const StatusSchema = Type.Object({
  connection_id: Type.String({ format: 'uuid' }),
  platform: Nullable(Type.String(), 'Platform identifier.'),
  status: ConnectionStatusSchema,
  is_ready: Type.Boolean({ description: 'Whether the initial sync finished.' }),
  default_subsidiary_id: Nullable(Type.String(), 'Subsidiary picked in the link flow (one ERP platform only); null otherwise.'),
  disable_error: Nullable(Type.String(), 'Why the connection is disabled.'),
  disable_message: Nullable(Type.String(), 'Human-readable reason.'),
  latest_syncs: Type.Array(SyncRunSchema, { description: 'The five most recent syncs, newest first.' }),
});

export const contract = defineContract({
  method: 'GET', url: '/connections/status', auth: 'client', tags: ['Connections'],
  summary: 'Sync status of a connection.',
  querystring: AccessTokenQuery,
  success: { status: 200, schema: StatusSchema },
  errors: ['MISSING_ACCESS_TOKEN', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'],
});

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export default defineEndpoint(contract, async (request) => {
  const { pool } = request.server.services;
  if (request.tenant === null) throw new Error('client auth hook did not run');
  const connection = await connectionForAccessToken(pool, request.tenant, request.query.access_token);
  const runs = await latestSyncRuns(pool, connection.id, 5);
  return {
    connection_id: connection.id,
    platform: connection.platform,
    status: connection.status,
    is_ready: connection.readyAt !== null,
    default_subsidiary_id: connection.defaultSubsidiaryId,
    disable_error: connection.disableError,
    disable_message: connection.disableMessage,
    latest_syncs: runs.map((r) => ({
      id: r.id, kind: r.kind, status: r.status, error: r.error,
      created_at: r.created_at.toISOString(), started_at: iso(r.started_at), finished_at: iso(r.finished_at),
    })),
  };
});
