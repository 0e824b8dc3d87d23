/** What the dashboard may know of an organisation's API credentials: client ids and when secrets expire, never a secret. */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export interface CredentialSecretRow {
  environment: Environment;
  client_id: string;
  credential_created_at: Date;
  secret_created_at: Date | null;
  expires_at: Date | null;
}

/** Every credential of the organisation with its secrets still active (newest first); expired secrets are left out. */
export async function listCredentialSecrets(db: Queryable, organizationId: string): Promise<CredentialSecretRow[]> {
  const result = await db.query<CredentialSecretRow>(
    `SELECT c.environment, c.client_id, c.created_at AS credential_created_at, s.created_at AS secret_created_at, s.expires_at
       FROM api_credentials c
       LEFT JOIN api_secrets s ON s.credential_id = c.id AND (s.expires_at IS NULL OR s.expires_at > clock_timestamp())
      WHERE c.organization_id = $1
      ORDER BY c.environment DESC, s.created_at DESC`,
    [organizationId],
  );
  return result.rows;
}
