/**
 * Endpoints an operator turned off for one organisation (PUT /admin/organizations/:id/disabled_endpoints, or
 * `npx ledgerport org endpoints`): a read-only integration for a lender, no bank feeds writes for another. Finer than
 * products (src/tenants/products.ts): one method of one route. Requests to them answer 404
 * ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION after authentication, before anything is read or written.
 */
import type { Queryable } from '../db/pool.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { organizationNotFound } from './organizations.ts';
import { setOrganizationDisabledEndpoints } from '../sql/organization-disabled-endpoints.ts';
import type { AuthenticatedTenant } from './types.ts';

const ENDPOINT = /^(GET|POST|PUT|PATCH|DELETE) (\/[A-Za-z0-9_:/.-]*)$/;

/** `method` and `route` as the router matched them; the route template without the /versioned prefix. */
export function assertEndpointEnabled(tenant: AuthenticatedTenant, method: string, route: string): void {
  if (tenant.disabledEndpoints.length === 0) return;
  const key = `${method} ${route.startsWith('/versioned/') ? route.slice('/versioned'.length) : route}`;
  if (!tenant.disabledEndpoints.includes(key)) return;
  throw new ServiceError(
    'ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION',
    `${key} is turned off for this organisation by the operator of this service; ask them to enable it.`,
    { source: 'service', endpoint: key },
  );
}

/**
 * Sets the list (the admin API and the CLI). `isEndpoint` says whether a method and route template is one the API
 * serves to clients: an unknown one is a 400 naming it, so a typo does not silently leave an endpoint on.
 */
export async function setDisabledEndpoints(
  db: Queryable,
  organizationId: string,
  requested: readonly string[],
  field: string,
  isEndpoint: (method: string, route: string) => boolean,
): Promise<string[]> {
  for (const [n, entry] of requested.entries()) {
    const match = ENDPOINT.exec(entry);
    if (match?.[1] === undefined || match[2] === undefined || !isEndpoint(match[1], match[2])) {
      throw new ServiceError(
        'VALIDATION_ERROR',
        `\`${field}[${n}]\` is "${entry}", not an endpoint of this API: write the method and the route as the OpenAPI document has it, such as "POST /accounting/bills" or "GET /accounting/bills/:id".`,
        { source: 'service', field: `${field}[${n}]` },
      );
    }
  }
  const stored = await setOrganizationDisabledEndpoints(db, organizationId, [...new Set(requested)]);
  if (stored === null) throw organizationNotFound(organizationId);
  return stored;
}
