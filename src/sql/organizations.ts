/** Organisations as stored; src/tenants/organizations.ts turns a row into the API's Organization. */
import type { Queryable } from '../db/pool.ts';
import type { Product } from '../tenants/types.ts';

export interface OrganizationRow {
  id: string;
  name: string;
  products: Product[];
  disabled_endpoints: string[];
  data_batching: { months: number[] } | null;
  created_at: Date;
}

const ORGANIZATION_COLUMNS = 'id, name, products, disabled_endpoints, data_batching, created_at';

export async function insertOrganization(db: Queryable, name: string): Promise<OrganizationRow> {
  const result = await db.query<OrganizationRow>(`INSERT INTO organizations (name) VALUES ($1) RETURNING ${ORGANIZATION_COLUMNS}`, [name]);
  const row = result.rows[0];
  if (row === undefined) throw new Error('organization insert returned no row');
  return row;
}

export async function findOrganization(db: Queryable, id: string): Promise<OrganizationRow | null> {
  const result = await db.query<OrganizationRow>(`SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE id = $1`, [id]);
  return result.rows[0] ?? null;
}

/** Every organisation, oldest first. */
export async function listOrganizationRows(db: Queryable): Promise<OrganizationRow[]> {
  const result = await db.query<OrganizationRow>(`SELECT ${ORGANIZATION_COLUMNS} FROM organizations ORDER BY created_at, id`);
  return result.rows;
}

export async function countOrganizations(db: Queryable): Promise<number> {
  const result = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
  return result.rows[0]?.n ?? 0;
}
