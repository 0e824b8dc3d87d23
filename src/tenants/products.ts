/**
 * Which product each unified object belongs to, and the check that an organisation may use it (the operator's
 * PUT /admin/organizations/:id/products): PRODUCT_NOT_ALLOWED otherwise, before anything is read or written.
 */
import type { Queryable } from '../db/pool.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { organizationNotFound } from './organizations.ts';
import { setOrganizationProducts } from '../sql/organization-products.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import { PRODUCTS, type AuthenticatedTenant, type Product } from './types.ts';

/**
 * Everything not listed is accounting. Payments has no object of its own yet. Employees are accounting too, though
 * served at the reference's HRIS path: the spec lists them among the further accounting endpoints (docs/reference.md).
 */
const PRODUCT_OF: Partial<Record<UnifiedObjectType, Product>> = {
  order: 'commerce',
  payout: 'commerce',
  product: 'commerce',
  commerce_customer: 'commerce',
  customer_group: 'commerce',
  transaction: 'commerce',
  dispute: 'commerce',
  subscription: 'commerce',
  store: 'commerce',
  bank_feed_account: 'bank_feeds',
};

export function productOf(type: UnifiedObjectType): Product {
  return PRODUCT_OF[type] ?? 'accounting';
}

export function assertProductAllowed(tenant: AuthenticatedTenant, type: UnifiedObjectType): void {
  const product = productOf(type);
  if (tenant.products.includes(product)) return;
  throw new ServiceError(
    'PRODUCT_NOT_ALLOWED',
    `The ${product.replace('_', ' ')} product is not enabled for this organisation (it has: ${tenant.products.join(', ') || 'none'}); ask the operator of this service to enable it.`,
    { source: 'service', product },
  );
}

/** Sets the products an organisation may use (the admin API and the CLI). */
export async function setProducts(db: Queryable, organizationId: string, requested: readonly string[], field: string): Promise<Product[]> {
  const unknown = requested.filter((p) => !PRODUCTS.some((known) => known === p));
  if (unknown.length > 0) {
    throw new ServiceError(
      'VALIDATION_ERROR',
      `\`${field}\` names ${unknown.map((u) => `"${u}"`).join(', ')}; products are ${PRODUCTS.join(', ')}.`,
      { source: 'service', field },
    );
  }
  const products = PRODUCTS.filter((p) => requested.includes(p));
  const stored = await setOrganizationProducts(db, organizationId, products);
  if (stored === null) throw organizationNotFound(organizationId);
  return stored;
}
