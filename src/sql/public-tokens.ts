/** Public tokens: single use, short-lived, stored as SHA-256 only (src/connections/connections.ts). */
import type { Queryable } from '../db/pool.ts';
import type { Tenant } from '../tenants/types.ts';

export async function insertPublicToken(db: Queryable, tokenSha256: Buffer, connectionId: string, ttlSeconds: number): Promise<void> {
  await db.query(
    `INSERT INTO public_tokens (token_sha256, connection_id, expires_at) VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))`,
    [tokenSha256, connectionId, ttlSeconds],
  );
}

/**
 * Uses the token once: its connection's id when it is unused, unexpired and of a connection of `tenant`; otherwise null
 * (used, expired, unknown and another tenant's all look alike).
 */
export async function usePublicToken(db: Queryable, tenant: Tenant, tokenSha256: Buffer): Promise<string | null> {
  const result = await db.query<{ connection_id: string }>(
    `UPDATE public_tokens p SET used_at = clock_timestamp()
       FROM connections c
      WHERE p.token_sha256 = $1 AND p.used_at IS NULL AND p.expires_at > clock_timestamp()
        AND c.id = p.connection_id AND c.organization_id = $2 AND c.environment = $3
      RETURNING p.connection_id`,
    [tokenSha256, tenant.organizationId, tenant.environment],
  );
  return result.rows[0]?.connection_id ?? null;
}
