/** The tenant a dashboard session acts as on the client routes: its organisation, in the environment it chose. */
import type { Queryable } from '../db/pool.ts';
import { getOrganization, organizationNotFound } from '../tenants/organizations.ts';
import type { AuthenticatedTenant, Environment } from '../tenants/types.ts';

export async function sessionTenant(db: Queryable, organizationId: string, environment: Environment): Promise<AuthenticatedTenant> {
  const organization = await getOrganization(db, organizationId);
  if (organization === null) throw organizationNotFound(organizationId);
  return { organizationId, environment, products: organization.products, disabledEndpoints: organization.disabled_endpoints };
}
