/** The organisation's default sync configuration (migration 0034) and the connections that override it. */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export async function findOrganizationSyncConfig(db: Queryable, organizationId: string): Promise<unknown> {
  const result = await db.query<{ sync_config: unknown }>('SELECT sync_config FROM organizations WHERE id = $1', [organizationId]);
  return result.rows[0]?.sync_config ?? null;
}

/** Sets (or with null, clears) the default; false when there is no such organisation. */
export async function setOrganizationSyncConfig(db: Queryable, organizationId: string, config: object | null): Promise<boolean> {
  const result = await db.query('UPDATE organizations SET sync_config = $2::jsonb WHERE id = $1', [
    organizationId,
    config === null ? null : JSON.stringify(config),
  ]);
  return result.rowCount === 1;
}

export interface SyncOverrideRow {
  id: string;
  name: string | null;
  platform: string | null;
  status: string;
  sync_config: unknown;
}

/** Connections of one environment with a syncConfig of their own (they do not follow the default), newest first. */
export async function listSyncConfigOverrides(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  limit: number,
): Promise<SyncOverrideRow[]> {
  const result = await db.query<SyncOverrideRow>(
    `SELECT id, name, platform, status, sync_config FROM connections
      WHERE organization_id = $1 AND environment = $2 AND sync_config IS NOT NULL
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [organizationId, environment, limit],
  );
  return result.rows;
}
