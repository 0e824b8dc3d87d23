import { Type } from 'typebox';
import { syncedObjectTypes } from '../../../connections/sync-defaults.ts';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { encodeCursor } from '../../../http/keyset-cursor.ts';
import { objectTypeToEntity } from '../../../connections/sync-config.ts';
import { listConnectionSyncRuns, type DashboardSyncRunRow } from '../../../sql/dashboard-connection-syncs.ts';
import { lastCompletedSyncAt } from '../../../sql/sync-runs.ts';
import { listSyncObjects, objectCoverage } from '../../../sql/sync-objects.ts';
import { listSyncRunObjects, type SyncRunObjectRow } from '../../../sql/sync-run-objects.ts';
import { isUnifiedObjectType } from '../../../model/object-types.ts';

/** Upper-case entity of a stored object type (as the API names it); the type itself if unknown. */
const entityOf = (objectType: string): string => (isUnifiedObjectType(objectType) ? objectTypeToEntity(objectType) : objectType);
import { Nullable, StringEnum } from '../../../model/shared.ts';
import { ConnectionIdParams, ConnectionStatusSchema } from '../../connections/schemas.ts';
import { CursorQuery, iso, ownConnection, positionOf } from './shared.ts';

export const RUNS_PER_PAGE = 20;

const RunObjectSchema = Type.Object({
  entity: Type.String(),
  pages_read: Type.Integer(),
  records_read: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  deleted: Type.Integer(),
});

const RunSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: StringEnum(['initial', 'incremental', 'backfill'], 'Which sync.'),
  trigger: Type.String({ description: 'link, schedule, manual or api.' }),
  status: StringEnum(['queued', 'running', 'completed', 'failed', 'cancelled'], 'Where it is.'),
  error: Nullable(Type.String(), 'Why it failed (or why its last attempt did).'),
  attempts: Type.Integer({ description: 'Attempts so far (a failed attempt is retried).' }),
  object_types: Nullable(Type.Array(Type.String()), 'Entities an incremental sync was asked for; null = all.'),
  backfill: Nullable(Type.Object({ entity: Type.String(), start_date: Type.String(), end_date: Type.String() }), 'The window of a backfill.'),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Nullable(Type.String({ format: 'date-time' })),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
  duration_ms: Nullable(Type.Integer(), 'finished_at − started_at; null until it finishes.'),
  pages_read: Type.Integer({ description: 'Pages this run read from the platform, so far.' }),
  records_read: Type.Integer({ description: 'Records this run read, so far.' }),
  created: Type.Integer({ description: 'Records this run added to the stored copy.' }),
  updated: Type.Integer({ description: 'Stored records this run changed.' }),
  deleted: Type.Integer({ description: 'Stored records this run found gone from the platform.' }),
  failed_objects: Type.Array(Type.String(), { description: 'Entities whose read failed in this run.' }),
  objects: Type.Array(RunObjectSchema, { description: 'What the run read of each object, so far (its live progress while it runs).' }),
});

const ObjectSchema = Type.Object({
  entity: Type.String({ description: 'Upper-case entity name, e.g. BILL.' }),
  status: StringEnum(['not_started', 'in_progress', 'completed', 'failed'], 'State of its latest read.'),
  ready: Type.Boolean({ description: 'Read in full at least once.' }),
  stored_records: Type.Integer({ description: 'Live records of this object in the stored copy.' }),
  current_run_id: Nullable(Type.String({ format: 'uuid' }), 'The run reading it now (or that read it last).'),
  batches_done: Type.Integer({ description: 'Batches (data-batching months, backfill windows) done in the current read.' }),
  pages_read: Type.Integer({ description: 'Pages read from the platform, all syncs.' }),
  records_read: Type.Integer({ description: 'Records read from the platform, all syncs.' }),
  last_started_at: Nullable(Type.String({ format: 'date-time' })),
  last_completed_at: Nullable(Type.String({ format: 'date-time' })),
  error: Nullable(Type.String()),
});

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/connections/:id/syncs',
  auth: 'session',
  tags: ['Dashboard'],
  summary: "A connection's sync state for the dashboard: each synced object's state and its sync runs, newest first, 20 a page.",
  params: ConnectionIdParams,
  querystring: Type.Object({ cursor: CursorQuery }),
  success: {
    status: 200,
    schema: Type.Object({
      connection_status: ConnectionStatusSchema,
      is_ready: Type.Boolean({ description: 'The initial sync has finished.' }),
      last_sync_completed_at: Nullable(Type.String({ format: 'date-time' }), 'When a sync of the connection last completed; null if none has.'),
      entities: Type.Array(Type.String(), { description: 'Entities the connection syncs (what an incremental sync or a backfill may name).' }),
      objects: Type.Array(ObjectSchema),
      runs: Type.Array(RunSchema),
      next_cursor: Nullable(Type.String(), 'Where the next page of runs starts; null on the last page.'),
    }),
  },
  errors: ['VALIDATION_ERROR', 'RESOURCE_NOT_FOUND', 'INVALID_CURSOR'],
});

function runView(run: DashboardSyncRunRow, counts: readonly SyncRunObjectRow[], failed: readonly string[]) {
  const sum = (field: 'pages_read' | 'records_read' | 'created' | 'updated' | 'deleted') => counts.reduce((total, c) => total + c[field], 0);
  const types = run.request.object_types;
  const { entity, start_date: start, end_date: end } = run.request;
  return {
    id: run.id,
    kind: run.kind,
    trigger: run.trigger,
    status: run.status,
    error: run.error,
    attempts: run.attempts,
    object_types: Array.isArray(types) ? types.filter((t): t is string => typeof t === 'string') : null,
    backfill:
      run.kind === 'backfill' && typeof entity === 'string' && typeof start === 'string' && typeof end === 'string'
        ? { entity, start_date: start, end_date: end }
        : null,
    created_at: run.created_at.toISOString(),
    started_at: iso(run.started_at),
    finished_at: iso(run.finished_at),
    duration_ms: run.started_at === null || run.finished_at === null ? null : run.finished_at.getTime() - run.started_at.getTime(),
    pages_read: sum('pages_read'),
    records_read: sum('records_read'),
    created: sum('created'),
    updated: sum('updated'),
    deleted: sum('deleted'),
    failed_objects: [...failed],
    objects: counts.map((c) => ({
      entity: entityOf(c.object_type),
      pages_read: c.pages_read,
      records_read: c.records_read,
      created: c.created,
      updated: c.updated,
      deleted: c.deleted,
    })),
  };
}

export default defineEndpoint(contract, async (request) => {
  const { pool } = request.server.services;
  const connection = await ownConnection(request, request.params.id);
  const runs = await listConnectionSyncRuns(pool, connection.id, positionOf(request.query.cursor), RUNS_PER_PAGE);
  const states = new Map((await listSyncObjects(pool, connection.id)).map((o) => [o.object_type, o]));
  const coverage = await objectCoverage(pool, connection.id);
  const ready = connection.readyAt !== null;
  const types = await syncedObjectTypes(pool, connection);
  const next = runs.length > RUNS_PER_PAGE ? runs[RUNS_PER_PAGE] : undefined;
  const shown = runs.slice(0, RUNS_PER_PAGE);
  const counts = await listSyncRunObjects(
    pool,
    shown.map((r) => r.id),
  );
  const failedIn = (runId: string) =>
    [...states.values()].filter((o) => o.run_id === runId && o.status === 'failed').map((o) => entityOf(o.object_type));
  return {
    connection_status: connection.status,
    is_ready: ready,
    last_sync_completed_at: iso(await lastCompletedSyncAt(pool, connection.id)),
    entities: types.map(objectTypeToEntity),
    objects: types.map((type) => {
      const state = states.get(type);
      return {
        entity: objectTypeToEntity(type),
        status: state?.status ?? ('not_started' as const),
        ready: ready || (state?.last_completed_at ?? null) !== null,
        stored_records: coverage.get(type)?.live ?? 0,
        current_run_id: state?.run_id ?? null,
        batches_done: state?.batches_done ?? 0,
        pages_read: state?.pages_read ?? 0,
        records_read: state?.records_read ?? 0,
        last_started_at: iso(state?.last_started_at ?? null),
        last_completed_at: iso(state?.last_completed_at ?? null),
        error: state?.error ?? null,
      };
    }),
    runs: shown.map((run) =>
      runView(
        run,
        counts.filter((c) => c.run_id === run.id),
        failedIn(run.id),
      ),
    ),
    next_cursor: next === undefined ? null : encodeCursor({ createdAt: next.position_ts, id: next.id }),
  };
});
