import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { syncedObjectTypes } from '../../connections/sync-defaults.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { historicalBatchesAnnounced, lastCompletedSyncAt, latestSyncRuns } from '../../sql/sync-runs.ts';
import { linkUrl } from '../../connections/link-token.ts';
import { ConnectionRefSchema, connectionRef } from '../shared/envelope.ts';
import { Nullable, StringEnum } from '../../model/shared.ts';
import { AccessTokenQuery, ConnectionStatusSchema } from './schemas.ts';
import { listSyncObjects, objectCoverage } from '../../sql/sync-objects.ts';
import { activePause } from '../../sql/platform-pauses.ts';
import { platformBudgetOf } from '../../connections/platform-budget.ts';
import { objectTypeToEntity } from '../../connections/sync-config.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import { requireTenant } from '../../http/auth.ts';

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

const EntityTotalSchema = Type.Object({
  oldest_entity_date: Nullable(
    Type.String({ format: 'date-time' }),
    "Oldest entity date stored: a record's business date, else its creation on the platform, else its last update there; null when none is stored or none carries a date.",
  ),
  newest_entity_date: Nullable(Type.String({ format: 'date-time' }), 'Newest entity date stored, as oldest_entity_date.'),
  ready: Type.Boolean({ description: 'Whether this object has been read in full at least once.' }),
  synced_count: Type.Integer({ description: 'Live records of this object in the stored copy.' }),
});

/** Reasons of the reference's disabled_status; ours are narrower (docs/reference.md). */
export const DISABLED_REASONS = ['NEEDS_REAUTH', 'MANUALLY_DISABLED', 'REQUEST_TIMEOUT', 'UNKNOWN'] as const;

const optionalCount = (what: string) => Nullable(Type.Integer(), `${what} in the stored copy; null when the platform has none.`);

/**
 * The reference's connection status object (docs/reference.md), plus the spec's default_subsidiary_id, plus
 * Ledgerport's own detail after it (connection_status … objects).
 */
export const StatusSchema = Type.Object({
  status: Type.Object({
    platform: Nullable(Type.String(), 'Platform identifier; null until the end user picks one in the link flow.'),
    is_ready: Type.Boolean({ description: 'Whether the initial sync finished: data requests answer without force_fetch.' }),
    is_healthy: Type.Boolean({ description: 'False while syncs keep failing, the connection needs re-authentication or is disabled.' }),
    link_url: Type.String({ description: 'Address of the hosted link flow for this connection (also to re-authenticate).' }),
    created_at: Type.String({ format: 'date-time' }),
    last_sync_completed_at: Nullable(Type.String({ format: 'date-time' }), 'When a sync last completed; null if none has.'),
    needs_update_status: Type.Object({
      needs_update: Type.Boolean({ description: 'The end user must re-authenticate through link_url.' }),
    }),
    disabled_status: Type.Object({
      is_disabled: Type.Boolean(),
      disabled_reason: Nullable(StringEnum(DISABLED_REASONS, "Why, in the reference's words; disable_error and disable_message say more.")),
    }),
    historical_sync_status: Type.Object({
      historical_sync_completed: Type.Boolean({ description: 'The initial sync has read every object in full.' }),
      total: Type.Record(Type.String(), EntityTotalSchema, { description: 'Per synced entity (upper-case name, e.g. BILL).' }),
      num_batches_completed: Nullable(Type.Integer(), 'Data batches announced by HISTORICAL_UPDATE; null without data batching.'),
      synced_balance_sheets_count: optionalCount('Balance sheets'),
      synced_cash_flows_count: optionalCount('Cash flow statements'),
      synced_income_statements_count: optionalCount('Income statements'),
      synced_orders_count: optionalCount('Orders'),
      synced_transactions_count: optionalCount('Transactions'),
      expected_entity_counts: Type.Null({ description: 'Not estimated: always null.' }),
      batches: Type.Array(Type.Object({}), { description: 'Always empty: progress per entity is in total and objects.' }),
    }),
    default_subsidiary_id: Nullable(Type.String(), 'Subsidiary picked in the link flow (one ERP platform only); null otherwise.'),
    connection_status: ConnectionStatusSchema,
    disable_error: Nullable(Type.String(), 'Why the connection is disabled.'),
    disable_message: Nullable(Type.String(), 'Human-readable reason.'),
    platform_pause: Nullable(
      Type.Object({
        paused_until: Type.String({
          format: 'date-time',
          description: 'No sync or write calls the platform before this time; they resume by themselves then.',
        }),
        reason: Type.String({
          description: 'What the platform answered (a long Retry-After, e.g. a daily request limit), or that the daily budget is spent.',
        }),
      }),
      'Set while the platform has asked us to stop calling it for this connection, or its daily budget is spent (docs/sync.md, "Platform pauses").',
    ),
    platform_budget: Nullable(
      Type.Object({
        daily_limit: Type.Integer({ description: 'Platform calls the connection may make in 24 hours, as the platform states it (Xero: 5,000).' }),
        used_today: Type.Integer({ description: 'Platform calls made in the current 24-hour window, by every process.' }),
        remaining_today: Type.Integer({ description: 'Calls left in the window; at 0 platform calls pause until resets_at (platform_pause).' }),
        resets_at: Nullable(
          Type.String({ format: 'date-time' }),
          'When the window ends; null while none is open (the next platform call opens one).',
        ),
      }),
      'The daily budget of platform calls and its use; null when the platform states none (docs/sync.md, "Platform limits and budgets").',
    ),
    latest_syncs: Type.Array(SyncRunSchema, { description: 'The five most recent syncs, newest first.' }),
    initial_sync: Type.Object({
      status: StringEnum(['not_started', 'in_progress', 'completed', 'failed'], 'State of the initial sync.'),
      objects_total: Type.Integer({ description: 'Objects the initial sync reads.' }),
      objects_completed: Type.Integer({ description: 'Objects it has finished.' }),
      progress: Type.Number({ minimum: 0, maximum: 1, description: 'objects_completed / objects_total: enough for a progress bar.' }),
    }),
    objects: Type.Array(ObjectStatusSchema, { description: 'Per synced object.' }),
  }),
  connection: ConnectionRefSchema,
});

export const contract = defineContract({
  method: 'GET',
  url: '/connections/status',
  auth: 'client',
  tags: ['Connections'],
  summary: 'Sync status of a connection.',
  description:
    "The reference's {status, connection} object (docs/reference.md); Ledgerport's own detail follows inside status, from connection_status on.",
  querystring: AccessTokenQuery,
  success: { status: 200, schema: StatusSchema },
  errors: ['MISSING_ACCESS_TOKEN', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'],
});

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** The reference's disabled_reason for our disable_error (src/connections/health.ts). */
function disabledReason(connection: ConnectionRecord): (typeof DISABLED_REASONS)[number] | null {
  if (connection.status !== 'disabled') return null;
  return connection.disableError === 'MANUALLY_DISABLED' ? 'MANUALLY_DISABLED' : 'UNKNOWN';
}

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher, config } = request.server.services;
  const tenant = requireTenant(request);
  const connection = await connectionForAccessToken(pool, tenant, request.query.access_token);
  // One after another: in parallel they would hold five of the organisation's connections at once (organization-gate.ts).
  const runs = await latestSyncRuns(pool, connection.id, 5);
  const states = new Map((await listSyncObjects(pool, connection.id)).map((o) => [o.object_type, o]));
  const coverage = await objectCoverage(pool, connection.id);
  const lastCompleted = await lastCompletedSyncAt(pool, connection.id);
  const batches = await historicalBatchesAnnounced(pool, connection.id);
  const pause = await activePause(pool, connection.id);
  const budget = await platformBudgetOf(pool, connection);
  // Its own syncConfig, else its organisation's default (src/connections/sync-defaults.ts).
  const types = await syncedObjectTypes(pool, connection);
  const ready = connection.readyAt !== null;
  const objects = types.map((type) => {
    const state = states.get(type);
    const cover = coverage.get(type);
    return {
      entity: objectTypeToEntity(type),
      status: state?.status ?? ('not_started' as const),
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
  const completed = ready ? types.length : objects.filter((o) => o.last_completed_at !== null).length;
  const initialRun = runs.find((r) => r.kind === 'initial');
  const initialStatus = ready
    ? ('completed' as const)
    : initialRun === undefined
      ? ('not_started' as const)
      : initialRun.status === 'failed'
        ? ('failed' as const)
        : initialRun.status === 'queued' && initialRun.started_at === null
          ? ('not_started' as const)
          : ('in_progress' as const);
  const countOf = (type: UnifiedObjectType): number | null => (types.includes(type) ? (coverage.get(type)?.live ?? 0) : null);
  return {
    status: {
      platform: connection.platform,
      is_ready: ready,
      is_healthy: connection.status === 'active' || connection.status === 'not_ready',
      link_url: linkUrl(config.publicUrl, cipher, connection),
      created_at: connection.createdAt.toISOString(),
      last_sync_completed_at: iso(lastCompleted),
      needs_update_status: { needs_update: connection.status === 'needs_reauth' },
      disabled_status: { is_disabled: connection.status === 'disabled', disabled_reason: disabledReason(connection) },
      historical_sync_status: {
        historical_sync_completed: ready,
        total: Object.fromEntries(
          types.map((type) => [
            objectTypeToEntity(type),
            {
              oldest_entity_date: iso(coverage.get(type)?.oldest_entity ?? null),
              newest_entity_date: iso(coverage.get(type)?.newest_entity ?? null),
              ready: ready || (states.get(type)?.last_completed_at ?? null) !== null,
              synced_count: coverage.get(type)?.live ?? 0,
            },
          ]),
        ),
        num_batches_completed: batches,
        synced_balance_sheets_count: countOf('balance_sheet'),
        synced_cash_flows_count: countOf('cash_flow_statement'),
        synced_income_statements_count: countOf('income_statement'),
        synced_orders_count: countOf('order'),
        synced_transactions_count: null,
        expected_entity_counts: null,
        batches: [],
      },
      default_subsidiary_id: connection.defaultSubsidiaryId,
      connection_status: connection.status,
      disable_error: connection.disableError,
      disable_message: connection.disableMessage,
      platform_pause: pause === null ? null : { paused_until: pause.until.toISOString(), reason: pause.reason },
      platform_budget: budget,
      latest_syncs: runs.map((r) => ({
        id: r.id,
        kind: r.kind,
        status: r.status,
        error: r.error,
        created_at: r.created_at.toISOString(),
        started_at: iso(r.started_at),
        finished_at: iso(r.finished_at),
      })),
      initial_sync: {
        status: initialStatus,
        objects_total: types.length,
        objects_completed: completed,
        progress: types.length === 0 ? (ready ? 1 : 0) : completed / types.length,
      },
      objects,
    },
    connection: connectionRef(connection),
  };
});
