/**
 * SQL of the operator's OAuth app surface (admin API and CLI): each
 * organisation's own OAuth app per platform and environment; and the app a
 * connection's link flow and token refreshes use (findOAuthApp, secret opened).
 */
import type { Cipher } from '../crypto/secrets.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

/** An OAuth app without its secret: the ciphertext is never selected here. */
export interface OAuthAppRow {
  platform: string;
  environment: Environment;
  client_id: string;
  redirect_uri: string;
  has_webhook_key: boolean;
  /** Consent scopes the app asks for; null: the connector's list (migration 0031). */
  scope: string | null;
  /** Platform calls of the app's connections (not simulated ones) this calendar month, UTC (migration 0030). */
  calls_this_month: number;
  created_at: Date;
  updated_at: Date;
}

// An app's calls this month: the sum of its connections' month counts (platform_call_meters, scope '' = the whole
// connection), a handful of rows per app, read only by the operator's list.
const CALLS_THIS_MONTH = `(SELECT COALESCE(sum(m.month_calls), 0)::float8 FROM connections c
    JOIN platform_call_meters m ON m.connection_id = c.id AND m.scope = ''
   WHERE c.organization_id = oauth_apps.organization_id AND c.environment = oauth_apps.environment AND c.platform = oauth_apps.platform
     AND NOT c.simulated AND m.month_started_at = date_trunc('month', clock_timestamp() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

const APP_COLUMNS = `platform, environment, client_id, redirect_uri, webhook_key_ciphertext IS NOT NULL AS has_webhook_key, scope,
  ${CALLS_THIS_MONTH} AS calls_this_month, created_at, updated_at`;

/** Sets (or replaces) the app of one platform and environment; null when the organisation does not exist. */
export async function upsertOAuthApp(
  db: Queryable,
  app: {
    organizationId: string;
    environment: Environment;
    platform: string;
    clientId: string;
    clientSecretCiphertext: Buffer;
    redirectUri: string;
    webhookKeyCiphertext: Buffer | null;
    /** Absent or null: the connector's list. */
    scope?: string | null;
  },
): Promise<OAuthAppRow | null> {
  const result = await db.query<OAuthAppRow>(
    `INSERT INTO oauth_apps (organization_id, environment, platform, client_id, client_secret_ciphertext, redirect_uri, webhook_key_ciphertext, scope)
     SELECT o.id, $2, $3, $4, $5, $6, $7, $8 FROM organizations o WHERE o.id = $1
     ON CONFLICT (organization_id, environment, platform) DO UPDATE
       SET client_id = EXCLUDED.client_id, client_secret_ciphertext = EXCLUDED.client_secret_ciphertext,
           redirect_uri = EXCLUDED.redirect_uri, webhook_key_ciphertext = EXCLUDED.webhook_key_ciphertext, scope = EXCLUDED.scope,
           updated_at = clock_timestamp()
     RETURNING ${APP_COLUMNS}`,
    [
      app.organizationId,
      app.environment,
      app.platform,
      app.clientId,
      app.clientSecretCiphertext,
      app.redirectUri,
      app.webhookKeyCiphertext,
      app.scope,
    ],
  );
  return result.rows[0] ?? null;
}

/** The organisation's apps, by platform then environment. */
export async function listOAuthApps(db: Queryable, organizationId: string): Promise<OAuthAppRow[]> {
  const result = await db.query<OAuthAppRow>(`SELECT ${APP_COLUMNS} FROM oauth_apps WHERE organization_id = $1 ORDER BY platform, environment`, [
    organizationId,
  ]);
  return result.rows;
}

/** True when an app was registered and is now removed. */
export async function deleteOAuthApp(db: Queryable, organizationId: string, environment: Environment, platform: string): Promise<boolean> {
  const result = await db.query(`DELETE FROM oauth_apps WHERE organization_id = $1 AND environment = $2 AND platform = $3`, [
    organizationId,
    environment,
    platform,
  ]);
  return (result.rowCount ?? 0) > 0;
}

/** An app with its secret opened: what a connector's OAuth calls take (OAuthAppCredentials, src/platforms/connector.ts). */
export interface OAuthAppSecret {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Consent scopes the app asks for; null: the connector's list. */
  scope: string | null;
}

/** The app of the connection's organisation and environment for this platform, or null. */
export async function findOAuthApp(db: Queryable, cipher: Cipher, connection: ConnectionRecord, platform: string): Promise<OAuthAppSecret | null> {
  const result = await db.query<{ client_id: string; client_secret_ciphertext: Buffer; redirect_uri: string; scope: string | null }>(
    `SELECT client_id, client_secret_ciphertext, redirect_uri, scope FROM oauth_apps
      WHERE organization_id = $1 AND environment = $2 AND platform = $3`,
    [connection.organizationId, connection.environment, platform],
  );
  const row = result.rows[0];
  if (row === undefined) return null;
  return { clientId: row.client_id, clientSecret: cipher.decrypt(row.client_secret_ciphertext), redirectUri: row.redirect_uri, scope: row.scope };
}
