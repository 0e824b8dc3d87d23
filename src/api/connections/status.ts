import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { latestSyncRuns } from '../../sql/sync-runs.ts';
import { Nullable, StringEnum } from '../../model/shared.ts';
import { AccessTokenQuery, ConnectionStatusSchema } from './schemas.ts';
import { listSyncObjects, objectCoverage } from '../../sql/sync-objects.ts';
import { getConnector } from '../../platforms/index.ts';
import { objectTypeToEntity, type SyncConfig } from '../../sync/config.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { ConnectionRecord } from '../../connections/types.ts';

const SyncRunSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: StringEnum(['initial', 'incremental', 'backfill'], 'Which sync.'),
  status: StringEnum(['queued', 'running', 'completed', 'failed', 'cancelled'], 'Where it is.'),
  error: Nullable(Type.String(), 'Why it failed.'),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Nullable(Type.String({ format: 'date-time' }), 'When it started.'),
  finished_at: Nullable(Type.String({ format: 'date-time' }), 'When it finished.'),
});

const ObjectStatusSchema = Type.Object({
  entity: Type.String({ description: 'Upper-case entity name, e.g. BILL.' }),
  status: StringEnum(['not_started', 'in_progress', 'completed', 'failed'], 'Sync state of this object.'),
  synced_count: Type.Integer({ description: 'Live records of this object in the stored copy.' }),
  oldest_record_at: Nullable(Type.String({ format: 'date-time' }), 'Oldest business date stored (null for undated objects).'),
  newest_record_at: Nullable(Type.String({ format: 'date-time' }), 'Newest business date stored.'),
  last_started_at: Nullable(Type.String({ format: 'date-time' }), 'When the latest read of this object started.'),
  last_completed_at: Nullable(Type.String({ format: 'date-time' }), 'When a read of this object last completed.'),
  pages_read: Type.Integer({ description: 'Pages read from the platform, all syncs.' }),
  records_read: Type.Integer({ description: 'Records read from the platform, all syncs.' }),
  error: Nullable(Type.String(), 'Why the latest read failed.'),
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
  initial_sync: Type.Object({
    status: StringEnum(['not_started', 'in_progress', 'completed', 'failed'], 'State of the initial sync.'),
    objects_total: Type.Integer({ description: 'Objects the initial sync reads.' }),
    objects_completed: Type.Integer({ description: 'Objects it has finished.' }),
    progress: Type.Number({ minimum: 0, maximum: 1, description: 'objects_completed / objects_total: enough for a progress bar.' }),
  }),
  objects: Type.Array(ObjectStatusSchema, { description: 'Per synced object.' }),
});

export const contract = defineContract({
  method: 'GET', url: '/connections/status', auth: 'client', tags: ['Connections'],
  summary: 'Sync status of a connection.',
  querystring: AccessTokenQuery,
  success: { status: 200, schema: StatusSchema },
  errors: ['MISSING_ACCESS_TOKEN', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'],
});

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** Object types the connection syncs: the platform's readable objects, narrowed by syncConfig.entities. */
function syncedTypes(connection: ConnectionRecord): UnifiedObjectType[] {
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  if (connector === undefined) return [];
  const config = connection.syncConfig as SyncConfig | null;
  return (Object.keys(connector.objects) as UnifiedObjectType[])
    .filter((t) => connector.objects[t]?.capabilities.read === true)
    .filter((t) => config?.entities === undefined || config.entities.includes(objectTypeToEntity(t)))
    .sort();
}

export default defineEndpoint(contract, async (request) => {
  const { pool } = request.server.services;
  if (request.tenant === null) throw new Error('client auth hook did not run');
  const connection = await connectionForAccessToken(pool, request.tenant, request.query.access_token);
  const runs = await latestSyncRuns(pool, connection.id, 5);
  const types = syncedTypes(connection);
  const states = new Map((await listSyncObjects(pool, connection.id)).map((o) => [o.object_type, o]));
  const coverage = await objectCoverage(pool, connection.id);
  const objects = types.map((type) => {
    const state = states.get(type);
    const cover = coverage.get(type);
    return {
      entity: objectTypeToEntity(type),
      status: state?.status ?? 'not_started' as const,
      synced_count: cover?.live ?? 0,
      oldest_record_at: iso(cover?.oldest ?? null),
      newest_record_at: iso(cover?.newest ?? null),
      last_started_at: iso(state?.last_started_at ?? null),
      last_completed_at: iso(state?.last_completed_at ?? null),
      pages_read: state?.pages_read ?? 0,
      records_read: state?.records_read ?? 0,
      error: state?.error ?? null,
    };
  });
  const completed = connection.readyAt !== null ? types.length : objects.filter((o) => o.last_completed_at !== null).length;
  const initialRun = runs.find((r) => r.kind === 'initial');
  const initialStatus = connection.readyAt !== null ? 'completed' as const
    : initialRun === undefined ? 'not_started' as const
      : initialRun.status === 'failed' ? 'failed' as const : initialRun.status === 'queued' && initialRun.started_at === null ? 'not_started' as const : 'in_progress' as const;
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
    initial_sync: {
      status: initialStatus, objects_total: types.length, objects_completed: completed,
      progress: types.length === 0 ? (connection.readyAt !== null ? 1 : 0) : completed / types.length,
    },
    objects,
  };
});
