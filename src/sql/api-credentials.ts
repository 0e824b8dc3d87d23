/**
 * API credentials (one client_id per organisation and environment) and their secrets, stored as SHA-256 to verify
 * and sealed to sign webhooks (src/tenants/organizations.ts).
 */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export async function insertApiCredential(db: Queryable, organizationId: string, environment: Environment, clientId: string): Promise<string> {
  const result = await db.query<{ id: string }>(
    'INSERT INTO api_credentials (organization_id, environment, client_id) VALUES ($1, $2, $3) RETURNING id',
    [organizationId, environment, clientId],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('credential insert returned no row');
  return id;
}

export async function insertApiSecret(db: Queryable, credentialId: string, secretSha256: Buffer, secretCiphertext: Buffer): Promise<void> {
  await db.query('INSERT INTO api_secrets (credential_id, secret_sha256, secret_ciphertext) VALUES ($1, $2, $3)', [
    credentialId,
    secretSha256,
    secretCiphertext,
  ]);
}

/** The organisation's credential of `environment`, locked until the transaction ends (a rotation at a time). */
export async function lockApiCredential(
  db: Queryable,
  organizationId: string,
  environment: Environment,
): Promise<{ id: string; client_id: string } | null> {
  const result = await db.query<{ id: string; client_id: string }>(
    'SELECT id, client_id FROM api_credentials WHERE organization_id = $1 AND environment = $2 FOR UPDATE',
    [organizationId, environment],
  );
  return result.rows[0] ?? null;
}

/** The database clock `seconds` from now: when secrets rotated out stop working (the clock secrets are checked by). */
export async function expiryAfter(db: Queryable, seconds: number): Promise<Date | null> {
  const result = await db.query<{ expires_at: Date }>(`SELECT clock_timestamp() + make_interval(secs => $1) AS expires_at`, [seconds]);
  return result.rows[0]?.expires_at ?? null;
}

/** Every secret of the credential still active expires at `expiresAt`; secrets already expiring keep the earlier of the two. */
export async function expireActiveSecrets(db: Queryable, credentialId: string, expiresAt: Date): Promise<void> {
  await db.query(
    `UPDATE api_secrets SET expires_at = LEAST(COALESCE(expires_at, $2), $2)
      WHERE credential_id = $1 AND (expires_at IS NULL OR expires_at > clock_timestamp())`,
    [credentialId, expiresAt],
  );
}
