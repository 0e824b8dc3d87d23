/**
 * Organisations and their API credentials: one client_id per environment, with
 * secrets stored as SHA-256 (to verify) and AES-256-GCM ciphertext (to sign
 * webhooks). Rotation keeps the previous secret valid for a grace period.
 */
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';
import { randomToken, secretMatches, sha256, type Cipher } from '../crypto/secrets.ts';
import { findActiveClientSecrets } from '../sql/authenticate-client.ts';
import { findActiveSecretCiphertexts } from '../sql/active-secrets.ts';
import { expireActiveSecrets, expiryAfter, insertApiCredential, insertApiSecret, lockApiCredential } from '../sql/api-credentials.ts';
import { findOrganization, insertOrganization, listOrganizationRows, type OrganizationRow } from '../sql/organizations.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { ENVIRONMENTS, type AuthenticatedTenant, type ClientCredentials, type Environment, type Organization, type Tenant } from './types.ts';

const CLIENT_ID_PREFIX: Record<Environment, string> = { sandbox: 'lp_sandbox_', production: 'lp_live_' };
const SECRET_PREFIX = 'lpsk_';

function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    products: row.products,
    disabled_endpoints: row.disabled_endpoints,
    data_batching: row.data_batching,
    created_at: row.created_at.toISOString(),
  };
}

async function insertSecret(db: Queryable, cipher: Cipher, credentialId: string): Promise<string> {
  const secret = randomToken(SECRET_PREFIX);
  await insertApiSecret(db, credentialId, sha256(secret), cipher.encrypt(secret));
  return secret;
}

export interface CreatedOrganization {
  organization: Organization;
  credentials: Record<Environment, ClientCredentials>;
}

export async function createOrganization(pool: Pool, cipher: Cipher, name: string): Promise<CreatedOrganization> {
  return withTransaction(pool, async (db) => {
    const row = await insertOrganization(db, name);
    const credentials = {} as Record<Environment, ClientCredentials>;
    for (const environment of ENVIRONMENTS) {
      const clientId = randomToken(CLIENT_ID_PREFIX[environment], 12);
      const credentialId = await insertApiCredential(db, row.id, environment, clientId);
      credentials[environment] = { client_id: clientId, client_secret: await insertSecret(db, cipher, credentialId) };
    }
    return { organization: toOrganization(row), credentials };
  });
}

export async function getOrganization(db: Queryable, id: string): Promise<Organization | null> {
  const row = await findOrganization(db, id);
  return row === null ? null : toOrganization(row);
}

/** The answer for an organisation id of the admin API or the CLI that names none: one wording everywhere. */
export function organizationNotFound(organizationId: string): ServiceError {
  return new ServiceError('RESOURCE_NOT_FOUND', `Organization ${organizationId} does not exist.`, { source: 'service' });
}

/** The organisation guard of the operator functions: RESOURCE_NOT_FOUND unless the organisation exists. */
export async function requireOrganization(db: Queryable, organizationId: string): Promise<void> {
  if ((await getOrganization(db, organizationId)) === null) throw organizationNotFound(organizationId);
}

export async function listOrganizations(db: Queryable): Promise<Organization[]> {
  return (await listOrganizationRows(db)).map(toOrganization);
}

export interface RotatedSecret {
  environment: Environment;
  client_id: string;
  client_secret: string;
  previous_secret_expires_at: string;
}

/**
 * Issues a new secret; every secret active until now expires after the grace
 * period (0 = at once). Serialised per credential by the row lock.
 */
export async function rotateSecret(
  pool: Pool,
  cipher: Cipher,
  organizationId: string,
  environment: Environment,
  gracePeriodSeconds: number,
): Promise<RotatedSecret> {
  return withTransaction(pool, async (db) => {
    const row = await lockApiCredential(db, organizationId, environment);
    if (row === null) throw new ServiceError('RESOURCE_NOT_FOUND', `Organization ${organizationId} does not exist.`);
    const expiresAt = (await expiryAfter(db, gracePeriodSeconds)) ?? new Date();
    // Secrets already expiring keep the earlier of their own expiry and the new one.
    await expireActiveSecrets(db, row.id, expiresAt);
    const secret = await insertSecret(db, cipher, row.id);
    return { environment, client_id: row.client_id, client_secret: secret, previous_secret_expires_at: expiresAt.toISOString() };
  });
}

/** HTTP Basic client credentials → tenant, or null. Every active secret is compared in constant time. */
export async function authenticateClient(db: Queryable, clientId: string, clientSecret: string): Promise<Tenant | null> {
  return (await verifyClient(db, clientId, clientSecret))?.tenant ?? null;
}

/** As authenticateClient, with the matched secret's expiry (set while a rotated-out secret is in its grace period). */
export async function verifyClient(
  db: Queryable,
  clientId: string,
  clientSecret: string,
): Promise<{ tenant: AuthenticatedTenant; expiresAt: Date | null } | null> {
  const rows = await findActiveClientSecrets(db, clientId);
  let match: { tenant: AuthenticatedTenant; expiresAt: Date | null } | null = null;
  for (const row of rows) {
    // No early exit: the time taken does not tell which secret matched.
    if (secretMatches(clientSecret, row.secret_sha256)) {
      match = {
        tenant: {
          organizationId: row.organization_id,
          environment: row.environment,
          products: row.products,
          disabledEndpoints: row.disabled_endpoints,
        },
        expiresAt: row.expires_at,
      };
    }
  }
  return match;
}

/** Plaintext active secrets of an environment, newest first: the webhook signing keys. */
export async function activeSigningSecrets(db: Queryable, cipher: Cipher, tenant: Tenant): Promise<string[]> {
  const sealed = await findActiveSecretCiphertexts(db, tenant.organizationId, tenant.environment);
  return sealed.map((s) => cipher.decrypt(s));
}
