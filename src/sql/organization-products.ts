/** The products an organisation may use (migration 0019). */
import type { Queryable } from '../db/pool.ts';
import type { Product } from '../tenants/types.ts';

/** Replaces the organisation's products; null when there is no such organisation. */
export async function setOrganizationProducts(db: Queryable, organizationId: string, products: readonly Product[]): Promise<Product[] | null> {
  const result = await db.query<{ products: Product[] }>('UPDATE organizations SET products = $2::text[] WHERE id = $1 RETURNING products', [
    organizationId,
    products,
  ]);
  return result.rows[0]?.products ?? null;
}
