/**
 * The product types of a connection's live products, each once, for the product categories
 * (src/api/commerce/products/categories.ts); products without a type are left out.
 */
import type { Queryable } from '../db/pool.ts';

export async function productTypes(db: Queryable, connectionId: string): Promise<string[]> {
  const result = await db.query<{ type: string }>(
    `SELECT DISTINCT data ->> 'type' AS type
       FROM records
      WHERE connection_id = $1 AND object_type = 'product' AND deleted_at IS NULL AND COALESCE(data ->> 'type', '') <> ''
      ORDER BY 1`,
    [connectionId],
  );
  return result.rows.map((row) => row.type);
}
