/** Whether an organisation has an OAuth app for a platform in an environment (connection creation checks it). */
import type { Queryable } from '../db/pool.ts';

export async function oauthAppExists(db: Queryable, organizationId: string, environment: string, platform: string): Promise<boolean> {
  const result = await db.query('SELECT 1 FROM oauth_apps WHERE organization_id = $1 AND environment = $2 AND platform = $3', [
    organizationId,
    environment,
    platform,
  ]);
  return result.rowCount === 1;
}
