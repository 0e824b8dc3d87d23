/**
 * The organisation's default sync configuration: what a connection created without a syncConfig of its own syncs
 * (entities, history windows, incremental frequency). It is resolved when a sync is planned, so a changed default
 * reaches every connection that follows it; a connection with its own syncConfig keeps it (an override). Data
 * batching stays the organisation's own setting (PUT /admin/organizations/:id/data_batching).
 */
import { Type, type Static } from 'typebox';
import type { Queryable } from '../db/pool.ts';
import { organizationNotFound } from '../tenants/organizations.ts';
import type { Environment } from '../tenants/types.ts';
import { findOrganizationSyncConfig, listSyncConfigOverrides, setOrganizationSyncConfig } from '../sql/organization-sync-config.ts';
import { ENTITY_NAMES, objectTypeToEntity, SyncConfigSchema, validateSyncConfig, type SyncConfig } from './sync-config.ts';
import type { ConnectionRecord } from './types.ts';
import { getConnector } from '../platforms/index.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';

const { entities, historical_months: historicalMonths, entity_historical_months: entityHistoricalMonths } = SyncConfigSchema.properties;

export const SyncDefaultsSchema = Type.Object(
  {
    entities,
    historical_months: historicalMonths,
    entity_historical_months: entityHistoricalMonths,
    incremental_sync_frequency_minutes: SyncConfigSchema.properties.incremental_sync_frequency_minutes,
  },
  {
    additionalProperties: false,
    description: 'Entities, history windows and incremental frequency of connections without a syncConfig of their own.',
  },
);
export type SyncDefaults = Static<typeof SyncDefaultsSchema>;

export const MAX_LISTED_OVERRIDES = 200;

export interface SyncConfigOverride {
  connection_id: string;
  name: string | null;
  platform: string | null;
  status: string;
  sync_config: SyncConfig;
}

export async function organizationSyncDefaults(db: Queryable, organizationId: string): Promise<SyncDefaults | null> {
  // Written only through setOrganizationSyncDefaults, which validated it against SyncDefaultsSchema.
  return (await findOrganizationSyncConfig(db, organizationId)) as SyncDefaults | null;
}

/** Sets the default; an empty object clears it (the service's defaults: all entities, 24 months, hourly). */
export async function setOrganizationSyncDefaults(db: Queryable, organizationId: string, defaults: SyncDefaults): Promise<SyncDefaults | null> {
  // Entity names are checked against every platform's: a platform that does not offer one simply does not read it.
  validateSyncConfig(defaults, ENTITY_NAMES);
  const stored = Object.keys(defaults).length === 0 ? null : defaults;
  if (!(await setOrganizationSyncConfig(db, organizationId, stored))) throw organizationNotFound(organizationId);
  return stored;
}

/** The configuration a sync of the connection follows: its own, else its organisation's default, else none. */
export async function effectiveSyncConfig(db: Queryable, connection: { organizationId: string; syncConfig: unknown }): Promise<unknown> {
  return connection.syncConfig ?? (await organizationSyncDefaults(db, connection.organizationId));
}

export async function syncConfigOverrides(db: Queryable, organizationId: string, environment: Environment): Promise<SyncConfigOverride[]> {
  const rows = await listSyncConfigOverrides(db, organizationId, environment, MAX_LISTED_OVERRIDES);
  return rows.map((row) => ({
    connection_id: row.id,
    name: row.name,
    platform: row.platform,
    status: row.status,
    // Stored from a request validated against SyncConfigSchema (POST /connections).
    sync_config: row.sync_config as SyncConfig,
  }));
}

/**
 * Object types the connection syncs: its platform's readable objects, narrowed by the entities of its syncConfig or,
 * without one, of its organisation's default. GET /connections/status and the dashboard's connection page both ask this.
 */
export async function syncedObjectTypes(db: Queryable, connection: ConnectionRecord): Promise<UnifiedObjectType[]> {
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  if (connector === undefined) return [];
  const config = (await effectiveSyncConfig(db, connection)) as SyncConfig | null;
  return (Object.keys(connector.objects) as UnifiedObjectType[])
    .filter((t) => connector.objects[t]?.capabilities.read === true)
    .filter((t) => config?.entities === undefined || config.entities.includes(objectTypeToEntity(t)))
    .sort();
}
