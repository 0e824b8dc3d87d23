/**
 * Settings of the installation (service_settings, a key and a JSON text each) that start-up reads and writes
 * (src/tenants/bootstrap.ts): the encryption key check, the admin token's SHA-256, whether the first start is done.
 */
import type { Queryable } from '../db/pool.ts';

/** Stores the sealed check value unless one is stored already (the first start's stays). */
export async function storeEncryptionKeyCheck(db: Queryable, value: string): Promise<void> {
  await db.query(`INSERT INTO service_settings (key, value) VALUES ('encryption_key_check', $1) ON CONFLICT (key) DO NOTHING`, [value]);
}

export async function encryptionKeyCheck(db: Queryable): Promise<string | null> {
  const result = await db.query<{ value: string }>(`SELECT value FROM service_settings WHERE key = 'encryption_key_check'`);
  return result.rows[0]?.value ?? null;
}

/** Serialises the first-start set-up of processes starting together, until the transaction ends. */
const BOOTSTRAP_LOCK = 4_711_000_003;

export async function lockBootstrap(db: Queryable): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
}

export interface BootstrapSetting {
  key: 'admin_token_sha256' | 'first_start_done';
  value: string;
}

/** The stored admin token digest and first-start mark, those of them that exist. */
export async function bootstrapSettings(db: Queryable): Promise<BootstrapSetting[]> {
  const result = await db.query<BootstrapSetting>(`SELECT key, value FROM service_settings WHERE key IN ('admin_token_sha256', 'first_start_done')`);
  return result.rows;
}

export async function storeAdminTokenDigest(db: Queryable, value: string): Promise<void> {
  await db.query(`INSERT INTO service_settings (key, value) VALUES ('admin_token_sha256', $1)`, [value]);
}

/** Marks the installation as set up (kept when it already is). */
export async function markFirstStartDone(db: Queryable): Promise<void> {
  await db.query(`INSERT INTO service_settings (key, value) VALUES ('first_start_done', 'true') ON CONFLICT (key) DO NOTHING`);
}
