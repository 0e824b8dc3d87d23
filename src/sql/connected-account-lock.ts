import type { Queryable } from '../db/pool.ts';
import type { Tenant } from '../tenants/types.ts';

/**
 * Serialises, until the transaction ends, whatever connects one platform account in a tenant (creating a connection,
 * completing a link), so exactly one connection ends up holding the account.
 */
export async function lockConnectedAccount(db: Queryable, tenant: Tenant, platform: string, storeUniqueId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `${tenant.organizationId}:${tenant.environment}:${platform}:${storeUniqueId}`,
  ]);
}
