import type { Queryable } from '../db/pool.ts';
import { CONNECTION_COLUMNS, toConnectionRecord, type ConnectionRecord, type ConnectionRow, type ConnectionStatus } from '../connections/types.ts';
import type { Tenant } from '../tenants/types.ts';

export interface InsertConnection {
  tenant: Tenant;
  platform: string | null;
  name: string | null;
  accessTokenSha256: Buffer;
  accessTokenCiphertext: Buffer;
  linkTokenSha256: Buffer;
  linkTokenCiphertext: Buffer;
  credentialsCiphertext: Buffer | null;
  storeUniqueId: string | null;
  storeName: string | null;
  storeDomain: string | null;
  syncConfig: unknown;
  scope: string | null;
  marketplace: string | null;
  redirectUrl: string | null;
  linked: boolean;
}

export async function insertConnection(db: Queryable, c: InsertConnection): Promise<ConnectionRecord> {
  const result = await db.query<ConnectionRow>(
    `INSERT INTO connections (organization_id, environment, platform, name, access_token_sha256, access_token_ciphertext,
                              link_token_sha256, link_token_ciphertext, credentials_ciphertext, store_unique_id, store_name,
                              sync_config, scope, marketplace, redirect_url, linked_at, store_domain)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, CASE WHEN $16 THEN clock_timestamp() END, $17)
     RETURNING ${CONNECTION_COLUMNS}`,
    [
      c.tenant.organizationId,
      c.tenant.environment,
      c.platform,
      c.name,
      c.accessTokenSha256,
      c.accessTokenCiphertext,
      c.linkTokenSha256,
      c.linkTokenCiphertext,
      c.credentialsCiphertext,
      c.storeUniqueId,
      c.storeName,
      c.syncConfig === null ? null : JSON.stringify(c.syncConfig),
      c.scope,
      c.marketplace,
      c.redirectUrl,
      c.linked,
      c.storeDomain,
    ],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('connection insert returned no row');
  return toConnectionRecord(row);
}

export async function findConnectionByAccessToken(db: Queryable, tenant: Tenant, tokenSha256: Buffer): Promise<ConnectionRecord | null> {
  const result = await db.query<ConnectionRow>(
    `SELECT ${CONNECTION_COLUMNS} FROM connections
      WHERE access_token_sha256 = $1 AND organization_id = $2 AND environment = $3`,
    [tokenSha256, tenant.organizationId, tenant.environment],
  );
  return result.rows[0] === undefined ? null : toConnectionRecord(result.rows[0]);
}

export async function findConnectionById(
  db: Queryable,
  tenant: Tenant,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ConnectionRecord | null> {
  const result = await db.query<ConnectionRow>(
    `SELECT ${CONNECTION_COLUMNS} FROM connections
      WHERE id = $1 AND organization_id = $2 AND environment = $3 ${options.forUpdate === true ? 'FOR UPDATE' : ''}`,
    [id, tenant.organizationId, tenant.environment],
  );
  return result.rows[0] === undefined ? null : toConnectionRecord(result.rows[0]);
}

/** A connection by id whatever its organisation: for workers and signed file links, which act for the service, not a caller. */
export async function findConnectionForService(db: Queryable, id: string): Promise<ConnectionRecord | null> {
  const result = await db.query<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM connections WHERE id = $1`, [id]);
  return result.rows[0] === undefined ? null : toConnectionRecord(result.rows[0]);
}

/** The connection a link token opens, found by the token's SHA-256 (the token itself is only stored sealed). */
export async function findConnectionByLinkToken(
  db: Queryable,
  linkTokenSha256: Buffer,
  options: { forUpdate?: boolean } = {},
): Promise<ConnectionRecord | null> {
  const result = await db.query<ConnectionRow>(
    `SELECT ${CONNECTION_COLUMNS} FROM connections WHERE link_token_sha256 = $1 ${options.forUpdate === true ? 'FOR UPDATE' : ''}`,
    [linkTokenSha256],
  );
  return result.rows[0] === undefined ? null : toConnectionRecord(result.rows[0]);
}

export async function findConnectionByStore(
  db: Queryable,
  tenant: Tenant,
  platform: string,
  storeUniqueId: string,
): Promise<ConnectionRecord | null> {
  const result = await db.query<ConnectionRow>(
    `SELECT ${CONNECTION_COLUMNS} FROM connections
      WHERE organization_id = $1 AND environment = $2 AND platform = $3 AND store_unique_id = $4`,
    [tenant.organizationId, tenant.environment, platform, storeUniqueId],
  );
  return result.rows[0] === undefined ? null : toConnectionRecord(result.rows[0]);
}

/** Position of a row in creation order; the timestamp keeps PostgreSQL's microseconds. */
export interface ListPosition {
  createdAt: string;
  id: string;
}

export interface ListedConnection {
  connection: ConnectionRecord;
  position: ListPosition;
}

/**
 * Paged mode: creation time then id, ascending, starting at `from` (inclusive:
 * next_cursor names the next entity); filters before the limit; one extra row
 * says whether, and where, the next page starts.
 */
export async function listConnectionsPage(
  db: Queryable,
  tenant: Tenant,
  statuses: readonly ConnectionStatus[],
  from: ListPosition | null,
  limit: number,
): Promise<ListedConnection[]> {
  const result = await db.query<ConnectionRow & { position_ts: string }>(
    `SELECT ${CONNECTION_COLUMNS},
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_ts
       FROM connections
      WHERE organization_id = $1 AND environment = $2 AND status = ANY($3::text[])
        AND ($4::timestamptz IS NULL OR (created_at, id) >= ($4::timestamptz, $5::uuid))
      ORDER BY created_at, id
      LIMIT $6`,
    [tenant.organizationId, tenant.environment, statuses, from?.createdAt ?? null, from?.id ?? null, limit + 1],
  );
  return result.rows.map((row) => ({ connection: toConnectionRecord(row), position: { createdAt: row.position_ts, id: row.id } }));
}

/** Deprecated unpaged mode: everything matching, newest first (the earlier ordering). */
export async function listConnectionsUnpaged(
  db: Queryable,
  tenant: Tenant,
  statuses: readonly ConnectionStatus[],
  cap: number,
): Promise<ConnectionRecord[]> {
  const result = await db.query<ConnectionRow>(
    `SELECT ${CONNECTION_COLUMNS} FROM connections
      WHERE organization_id = $1 AND environment = $2 AND status = ANY($3::text[])
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    [tenant.organizationId, tenant.environment, statuses, cap],
  );
  return result.rows.map(toConnectionRecord);
}
