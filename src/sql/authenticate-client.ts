import type { Queryable } from '../db/pool.ts';
import type { Environment, Product } from '../tenants/types.ts';

export interface ClientSecretRow {
  organization_id: string;
  environment: Environment;
  secret_sha256: Buffer;
  expires_at: Date | null;
  products: Product[];
  disabled_endpoints: string[];
}

/** Unexpired secrets of a client_id (normally one; two during a rotation grace period). */
export async function findActiveClientSecrets(db: Queryable, clientId: string): Promise<ClientSecretRow[]> {
  const result = await db.query<ClientSecretRow>(
    `SELECT c.organization_id, c.environment, s.secret_sha256, s.expires_at, o.products, o.disabled_endpoints
       FROM api_credentials c
       JOIN api_secrets s ON s.credential_id = c.id
       JOIN organizations o ON o.id = c.organization_id
      WHERE c.client_id = $1
        AND (s.expires_at IS NULL OR s.expires_at > clock_timestamp())`,
    [clientId],
  );
  return result.rows;
}
