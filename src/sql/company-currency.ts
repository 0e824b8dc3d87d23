import type { Queryable } from '../db/pool.ts';

/** The home currency of the connected business, as its stored company_info says; null when it does not say. */
export async function companyCurrency(db: Queryable, connectionId: string): Promise<string | null> {
  const result = await db.query<{ currency_code: string | null }>(
    `SELECT data->>'currency_code' AS currency_code FROM records
      WHERE connection_id = $1 AND object_type = 'company_info' AND deleted_at IS NULL
      ORDER BY updated_at DESC, id DESC LIMIT 1`,
    [connectionId],
  );
  return result.rows[0]?.currency_code ?? null;
}
