/**
 * SQL of the allowed redirect URLs: one list per organisation and environment
 * (src/connections/redirect-urls.ts holds the rules).
 */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export interface RedirectUrlListRow {
  environment: Environment;
  urls: string[];
  updated_at: Date;
}

/** Sets (or replaces) the list of one environment; null when the organisation does not exist. */
export async function upsertRedirectUrlList(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  urls: readonly string[],
): Promise<RedirectUrlListRow | null> {
  const result = await db.query<RedirectUrlListRow>(
    `INSERT INTO redirect_url_lists (organization_id, environment, urls)
     SELECT o.id, $2, $3::text[] FROM organizations o WHERE o.id = $1
     ON CONFLICT (organization_id, environment) DO UPDATE SET urls = EXCLUDED.urls, updated_at = clock_timestamp()
     RETURNING environment, urls, updated_at`,
    [organizationId, environment, urls],
  );
  return result.rows[0] ?? null;
}

/** The lists of an organisation's configured environments, sandbox first. */
export async function listRedirectUrlLists(db: Queryable, organizationId: string): Promise<RedirectUrlListRow[]> {
  const result = await db.query<RedirectUrlListRow>(
    `SELECT environment, urls, updated_at FROM redirect_url_lists WHERE organization_id = $1 ORDER BY environment DESC`,
    [organizationId],
  );
  return result.rows;
}

/** The list of one environment; null when none is set (not the same as an empty list). */
export async function findRedirectUrlList(db: Queryable, organizationId: string, environment: Environment): Promise<string[] | null> {
  const result = await db.query<{ urls: string[] }>(`SELECT urls FROM redirect_url_lists WHERE organization_id = $1 AND environment = $2`, [
    organizationId,
    environment,
  ]);
  return result.rows[0]?.urls ?? null;
}

/** True when a list was set and is now removed. */
export async function deleteRedirectUrlList(db: Queryable, organizationId: string, environment: Environment): Promise<boolean> {
  const result = await db.query(`DELETE FROM redirect_url_lists WHERE organization_id = $1 AND environment = $2`, [organizationId, environment]);
  return (result.rowCount ?? 0) > 0;
}

export interface UnlistedRedirects {
  organization_id: string;
  connections: number;
}

/**
 * Organisations whose production connections carry a redirect_url (given at creation, before migration 0015 made
 * lists the rule) while no production list is set: their link flows are refused until one is.
 */
export async function productionRedirectsWithoutList(db: Queryable): Promise<UnlistedRedirects[]> {
  const result = await db.query<UnlistedRedirects>(
    `SELECT c.organization_id, count(*)::int AS connections FROM connections c
      WHERE c.environment = 'production' AND c.redirect_url IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM redirect_url_lists l WHERE l.organization_id = c.organization_id AND l.environment = 'production')
      GROUP BY c.organization_id ORDER BY c.organization_id`,
  );
  return result.rows;
}
