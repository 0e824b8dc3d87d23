/** The endpoints an organisation may not use (migration 0022). */
import type { Queryable } from '../db/pool.ts';

/** Replaces the organisation's list; null when there is no such organisation. */
export async function setOrganizationDisabledEndpoints(
  db: Queryable,
  organizationId: string,
  endpoints: readonly string[],
): Promise<string[] | null> {
  const result = await db.query<{ disabled_endpoints: string[] }>(
    'UPDATE organizations SET disabled_endpoints = $2::text[] WHERE id = $1 RETURNING disabled_endpoints',
    [organizationId, endpoints],
  );
  return result.rows[0]?.disabled_endpoints ?? null;
}
