/**
 * SQL of the platforms' own webhooks (src/sync/inbound-webhooks.ts): the sealed webhook key of an organisation's OAuth
 * app, the connections a notification names, and the receipts kept for seven days.
 */
import type { Queryable } from '../db/pool.ts';
import { CONNECTION_COLUMNS, toConnectionRecord, type ConnectionRecord, type ConnectionRow } from '../connections/types.ts';
import type { Environment } from '../tenants/types.ts';

/** The sealed webhook key of the organisation's app of a platform and environment; null when none is registered. */
export async function webhookKeyCiphertext(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  platform: string,
): Promise<Buffer | null> {
  const result = await db.query<{ webhook_key_ciphertext: Buffer | null }>(
    `SELECT webhook_key_ciphertext FROM oauth_apps WHERE organization_id = $1 AND environment = $2 AND platform = $3`,
    [organizationId, environment, platform],
  );
  return result.rows[0]?.webhook_key_ciphertext ?? null;
}

/** Sets (or, with null, clears) the webhook key of an app; false when the organisation has no app of that platform and environment. */
export async function setWebhookKeyCiphertext(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  platform: string,
  ciphertext: Buffer | null,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE oauth_apps SET webhook_key_ciphertext = $4, updated_at = clock_timestamp()
      WHERE organization_id = $1 AND environment = $2 AND platform = $3`,
    [organizationId, environment, platform, ciphertext],
  );
  return result.rowCount === 1;
}

/**
 * The connections of an organisation's platform accounts, by store_unique_id or store_domain (Shopify names shops by
 * domain): only those a sync can read, ready or with their initial sync under way (src/sql/follow-up-runs.ts says
 * what waits for it). `account` is whichever of the two matched, as the notification named it.
 */
export async function connectionsOfAccounts(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  platform: string,
  accounts: readonly string[],
): Promise<{ id: string; account: string }[]> {
  const result = await db.query<{ id: string; account: string }>(
    `SELECT id, CASE WHEN store_unique_id = ANY($4::text[]) THEN store_unique_id ELSE store_domain END AS account FROM connections
      WHERE organization_id = $1 AND environment = $2 AND platform = $3
        AND (store_unique_id = ANY($4::text[]) OR store_domain = ANY($4::text[]))
        AND (ready_at IS NOT NULL OR linked_at IS NOT NULL) AND duplicate_of IS NULL AND status IN ('active', 'unhealthy', 'not_ready')
      ORDER BY id`,
    [organizationId, environment, platform, accounts],
  );
  return result.rows;
}

/**
 * The linked connections of accounts a notification says revoked our access (by store_unique_id or store_domain),
 * locked: the caller moves each to needs_reauth in the same transaction.
 */
export async function connectionsToRevoke(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  platform: string,
  accounts: readonly string[],
): Promise<ConnectionRecord[]> {
  const result = await db.query<ConnectionRow>(
    `SELECT ${CONNECTION_COLUMNS} FROM connections
      WHERE organization_id = $1 AND environment = $2 AND platform = $3
        AND (store_unique_id = ANY($4::text[]) OR store_domain = ANY($4::text[]))
        AND linked_at IS NOT NULL AND duplicate_of IS NULL
      ORDER BY id FOR UPDATE`,
    [organizationId, environment, platform, accounts],
  );
  return result.rows.map(toConnectionRecord);
}

/**
 * Records a verified notification, once: null when the same body was received before for this organisation,
 * environment and platform (a replay), which then changes nothing.
 */
export async function claimWebhookReceipt(
  db: Queryable,
  receipt: {
    organizationId: string;
    environment: Environment;
    platform: string;
    body: unknown;
    bodySha256: Buffer;
    changes: number;
    requestId: string | null;
  },
): Promise<string | null> {
  const result = await db.query<{ id: string }>(
    `INSERT INTO platform_webhook_receipts (organization_id, environment, platform, body, body_sha256, changes, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (organization_id, environment, platform, body_sha256) DO NOTHING RETURNING id`,
    [
      receipt.organizationId,
      receipt.environment,
      receipt.platform,
      JSON.stringify(receipt.body),
      receipt.bodySha256,
      receipt.changes,
      receipt.requestId,
    ],
  );
  return result.rows[0]?.id ?? null;
}

export async function setWebhookReceiptRuns(db: Queryable, receiptId: string, syncRunIds: readonly string[]): Promise<void> {
  await db.query('UPDATE platform_webhook_receipts SET sync_run_ids = $2::uuid[] WHERE id = $1', [receiptId, syncRunIds]);
}

/** Receipts older than `days` go; returns how many. */
export async function deleteOldWebhookReceipts(db: Queryable, days: number): Promise<number> {
  const result = await db.query(`DELETE FROM platform_webhook_receipts WHERE received_at < clock_timestamp() - make_interval(days => $1)`, [days]);
  return result.rowCount ?? 0;
}
