import type { Queryable } from '../db/pool.ts';

/** The newest migration applied (src/db/migrate.ts records each); null when none is. */
export async function appliedSchemaVersion(db: Queryable): Promise<number | null> {
  const result = await db.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return result.rows[0]?.version ?? null;
}
