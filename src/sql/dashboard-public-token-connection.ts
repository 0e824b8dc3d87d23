/**
 * Which connection a fresh public_token belongs to, without using it up: the dashboard's own link flow returns to
 * /dashboard/connections/linked with one and shows that connection (the client's exchange still works).
 */
import type { Queryable } from '../db/pool.ts';
import type { Tenant } from '../tenants/types.ts';

export async function connectionOfPublicToken(db: Queryable, tenant: Tenant, tokenSha256: Buffer): Promise<string | null> {
  const result = await db.query<{ connection_id: string }>(
    `SELECT p.connection_id FROM public_tokens p JOIN connections c ON c.id = p.connection_id
      WHERE p.token_sha256 = $1 AND p.expires_at > clock_timestamp() AND c.organization_id = $2 AND c.environment = $3`,
    [tokenSha256, tenant.organizationId, tenant.environment],
  );
  return result.rows[0]?.connection_id ?? null;
}
