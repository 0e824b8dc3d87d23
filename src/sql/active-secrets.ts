import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

/** Ciphertexts of the active secrets of an environment, newest first (webhook signing order). */
export async function findActiveSecretCiphertexts(db: Queryable, organizationId: string, environment: Environment): Promise<Buffer[]> {
  const result = await db.query<{ secret_ciphertext: Buffer }>(
    `SELECT s.secret_ciphertext
       FROM api_credentials c
       JOIN api_secrets s ON s.credential_id = c.id
      WHERE c.organization_id = $1 AND c.environment = $2
        AND (s.expires_at IS NULL OR s.expires_at > clock_timestamp())
      ORDER BY s.created_at DESC`,
    [organizationId, environment],
  );
  return result.rows.map((r) => r.secret_ciphertext);
}
