/** The API credentials of an organisation as its dashboard shows them: client ids and active secrets' lifetimes. */
import type { Queryable } from '../db/pool.ts';
import { listCredentialSecrets } from '../sql/credential-overview.ts';
import type { Environment } from './types.ts';

export interface CredentialOverview {
  environment: Environment;
  client_id: string;
  created_at: string;
  /** Active secrets, newest first: one normally, two during a rotation's grace period. */
  active_secrets: { created_at: string; expires_at: string | null }[];
}

export async function credentialOverview(db: Queryable, organizationId: string): Promise<CredentialOverview[]> {
  const byEnvironment = new Map<Environment, CredentialOverview>();
  for (const row of await listCredentialSecrets(db, organizationId)) {
    let entry = byEnvironment.get(row.environment);
    if (entry === undefined) {
      entry = { environment: row.environment, client_id: row.client_id, created_at: row.credential_created_at.toISOString(), active_secrets: [] };
      byEnvironment.set(row.environment, entry);
    }
    if (row.secret_created_at !== null) {
      entry.active_secrets.push({ created_at: row.secret_created_at.toISOString(), expires_at: row.expires_at?.toISOString() ?? null });
    }
  }
  return [...byEnvironment.values()];
}
