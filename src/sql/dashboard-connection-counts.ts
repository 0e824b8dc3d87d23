/** The dashboard overview's connection cards: how many connections of an organisation's environment are in each status. */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export async function connectionCountsByStatus(db: Queryable, organizationId: string, environment: Environment): Promise<Map<string, number>> {
  const result = await db.query<{ status: string; count: number }>(
    `SELECT status, count(*)::int AS count FROM connections WHERE organization_id = $1 AND environment = $2 GROUP BY status`,
    [organizationId, environment],
  );
  return new Map(result.rows.map((row) => [row.status, row.count]));
}
