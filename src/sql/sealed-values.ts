/**
 * Every value sealed with ENCRYPTION_KEY (src/crypto/secrets.ts), column by column, and the queries that re-seal them
 * with the current key (`ledgerport rotate-encryption-key`, src/tenants/rotate-encryption-key.ts). A new sealed
 * column must be added to SEALED_COLUMNS, or a rotation would leave it under the old key
 * (src/tenants/rotate-encryption-key.test.ts checks the list against the schema's *_ciphertext columns).
 *
 * Table and column names below are constants of this file, never input: the statements are built from them and
 * every value is a parameter.
 */
import type { Queryable } from '../db/pool.ts';

/** A primary key column and its type (keys travel as text and are cast back). */
interface KeyColumn {
  name: string;
  type: 'uuid' | 'text' | 'bytea';
}

export interface SealedColumn {
  table: string;
  column: string;
  /** The table's primary key, in index order: batches walk it. */
  key: readonly KeyColumn[];
  /**
   * `bytea`: the sealed bytes. `page-token`: text `sealed:` + the sealed bytes in base64url (src/sync/bulk-read.ts),
   * a bulk export's saved page token; other tokens in that column are not sealed and are left alone.
   */
  encoding: 'bytea' | 'page-token';
}

const id: readonly KeyColumn[] = [{ name: 'id', type: 'uuid' }];
const tenantPlatform: readonly KeyColumn[] = [
  { name: 'organization_id', type: 'uuid' },
  { name: 'environment', type: 'text' },
  { name: 'platform', type: 'text' },
];
const connectionObject: readonly KeyColumn[] = [
  { name: 'connection_id', type: 'uuid' },
  { name: 'object_type', type: 'text' },
];
const idempotencyKey: readonly KeyColumn[] = [
  { name: 'organization_id', type: 'uuid' },
  { name: 'environment', type: 'text' },
  { name: 'key', type: 'text' },
];

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  // API client secrets: webhooks are signed with them.
  { table: 'api_secrets', column: 'secret_ciphertext', key: id, encoding: 'bytea' },
  // Connections: access and link tokens, platform credentials, OAuth tokens.
  { table: 'connections', column: 'access_token_ciphertext', key: id, encoding: 'bytea' },
  { table: 'connections', column: 'link_token_ciphertext', key: id, encoding: 'bytea' },
  { table: 'connections', column: 'credentials_ciphertext', key: id, encoding: 'bytea' },
  { table: 'connections', column: 'oauth_tokens_ciphertext', key: id, encoding: 'bytea' },
  // Organisations' OAuth apps: client secrets and platform webhook signing keys.
  { table: 'oauth_apps', column: 'client_secret_ciphertext', key: tenantPlatform, encoding: 'bytea' },
  { table: 'oauth_apps', column: 'webhook_key_ciphertext', key: tenantPlatform, encoding: 'bytea' },
  // Link flows under way: tokens waiting for a choice, and what the end user typed.
  { table: 'oauth_states', column: 'pending_tokens_ciphertext', key: [{ name: 'state_sha256', type: 'bytea' }], encoding: 'bytea' },
  { table: 'oauth_states', column: 'authorization_input_ciphertext', key: [{ name: 'state_sha256', type: 'bytea' }], encoding: 'bytea' },
  // Webhook bodies' access token and update_url, filled in at sending.
  { table: 'events', column: 'access_token_ciphertext', key: id, encoding: 'bytea' },
  { table: 'events', column: 'update_url_ciphertext', key: id, encoding: 'bytea' },
  // Bulk exports: the platform's link to the results, and the page tokens that carry it.
  { table: 'sync_exports', column: 'result_cursor_ciphertext', key: connectionObject, encoding: 'bytea' },
  { table: 'sync_objects', column: 'page_token', key: connectionObject, encoding: 'page-token' },
  // Idempotent answers, kept whole.
  { table: 'idempotency_keys', column: 'response_body', key: idempotencyKey, encoding: 'bytea' },
];

/** The sealed bytes of a column's value, as SQL (the page token's first 8 base64url characters are its first 6 bytes). */
function sealedHead(column: SealedColumn): string {
  return column.encoding === 'bytea'
    ? `substring(${column.column} from 1 for 5)`
    : `substring(decode(translate(substr(${column.column}, 8, 8), '-_', '+/'), 'base64') from 1 for 5)`;
}

/** Rows of the column holding a sealed value that does not start with `prefix` (the current key's): to be re-sealed. */
function staleCondition(column: SealedColumn, prefixParam: string): string {
  const present =
    column.encoding === 'bytea' ? `${column.column} IS NOT NULL` : `${column.column} LIKE 'sealed:%' AND length(${column.column}) >= 15`;
  return `${present} AND ${sealedHead(column)} IS DISTINCT FROM ${prefixParam}::bytea`;
}

function keyList(column: SealedColumn, alias = ''): string {
  return column.key.map((k) => `${alias}${k.name}`).join(', ');
}

export interface StaleSealedValue {
  /** The row's primary key, each column as text, in SealedColumn.key's order. */
  key: string[];
  /** The stored value as it is (bytes, or the page token's text). */
  stored: Buffer | string;
}

/**
 * Up to `limit` rows of the column whose value is not sealed with the current key, after `after` in key order (null:
 * from the start), locked for the transaction; rows another transaction holds are skipped (a later pass takes them).
 * NO KEY UPDATE: the lock an UPDATE of a non-key column takes, so rows that reference these (a connection's records,
 * inserted by a sync meanwhile) are not held up by it.
 */
export async function lockStaleSealedValues(
  db: Queryable,
  column: SealedColumn,
  currentPrefix: Buffer,
  after: readonly string[] | null,
  limit: number,
): Promise<StaleSealedValue[]> {
  const params: unknown[] = [currentPrefix, limit];
  let from = '';
  if (after !== null) {
    const placeholders = column.key.map((k, i) => `$${i + 3}::text::${k.type}`);
    from = `AND (${keyList(column)}) > (${placeholders.join(', ')})`;
    params.push(...after);
  }
  const result = await db.query<{ key: string[]; stored: Buffer | string }>(
    `SELECT ARRAY[${column.key.map((k) => `${k.name}::text`).join(', ')}] AS key, ${column.column} AS stored
       FROM ${column.table}
      WHERE ${staleCondition(column, '$1')} ${from}
      ORDER BY ${keyList(column)}
      LIMIT $2
      FOR NO KEY UPDATE SKIP LOCKED`,
    params,
  );
  return result.rows;
}

export interface ResealedValue {
  key: readonly string[];
  /** What was read (the row is locked, so it is still that), and what replaces it. */
  before: Buffer | string;
  after: Buffer | string;
}

/** Writes re-sealed values over the ones read, in one statement; only where the stored value is still the one read. */
export async function storeResealedValues(db: Queryable, column: SealedColumn, values: readonly ResealedValue[]): Promise<number> {
  if (values.length === 0) return 0;
  const valueType = column.encoding === 'bytea' ? 'bytea' : 'text';
  const n = column.key.length;
  const keyArrays = column.key.map((_, i) => values.map((v) => v.key[i] ?? ''));
  const unnest = [...column.key.map((_, i) => `$${i + 1}::text[]`), `$${n + 1}::${valueType}[]`, `$${n + 2}::${valueType}[]`];
  const names = [...column.key.map((_, i) => `k${i}`), 'before', 'after'];
  const match = column.key.map((k, i) => `t.${k.name} = v.k${i}::${k.type}`).join(' AND ');
  const result = await db.query(
    `UPDATE ${column.table} t SET ${column.column} = v.after
       FROM unnest(${unnest.join(', ')}) AS v(${names.join(', ')})
      WHERE ${match} AND t.${column.column} = v.before`,
    [...keyArrays, values.map((v) => v.before), values.map((v) => v.after)],
  );
  return result.rowCount ?? 0;
}

/** How many values of the column are not sealed with the current key. */
export async function countStaleSealedValues(db: Queryable, column: SealedColumn, currentPrefix: Buffer): Promise<number> {
  const result = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${column.table} WHERE ${staleCondition(column, '$1')}`, [currentPrefix]);
  return Number(result.rows[0]?.n ?? 0);
}

/** The stored key check (service_settings.encryption_key_check: the sealed bytes in base64, as JSON text), locked. */
export async function lockEncryptionKeyCheck(db: Queryable): Promise<string | null> {
  const result = await db.query<{ value: string }>(`SELECT value FROM service_settings WHERE key = 'encryption_key_check' FOR UPDATE`);
  return result.rows[0]?.value ?? null;
}

export async function replaceEncryptionKeyCheck(db: Queryable, value: string): Promise<void> {
  await db.query(`UPDATE service_settings SET value = $1, updated_at = now() WHERE key = 'encryption_key_check'`, [value]);
}

/** The schema's columns named like sealed ones (`*_ciphertext`), for the test that SEALED_COLUMNS misses none. */
export async function ciphertextColumns(db: Queryable): Promise<{ table: string; column: string }[]> {
  const result = await db.query<{ table: string; column: string }>(
    `SELECT table_name AS table, column_name AS column FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name LIKE '%\\_ciphertext' ORDER BY 1, 2`,
  );
  return result.rows;
}
