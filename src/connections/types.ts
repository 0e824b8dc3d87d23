import type { Environment } from '../tenants/types.ts';

export const CONNECTION_STATUSES = ['active', 'unhealthy', 'not_ready', 'needs_reauth', 'disabled'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** A connection as stored, secrets still sealed. */
export interface ConnectionRecord {
  id: string;
  organizationId: string;
  environment: Environment;
  platform: string | null;
  name: string | null;
  status: ConnectionStatus;
  accessTokenCiphertext: Buffer;
  /** The link token (in link_url), sealed: it opens the connection's link page (src/connections/link-token.ts). */
  linkTokenCiphertext: Buffer;
  storeUniqueId: string | null;
  storeName: string | null;
  /** The account's own web domain (Shopify's shop domain); null for platforms without one. */
  storeDomain: string | null;
  credentialsCiphertext: Buffer | null;
  oauthTokensCiphertext: Buffer | null;
  syncConfig: unknown;
  scope: string | null;
  redirectUrl: string | null;
  defaultSubsidiaryId: string | null;
  linkedAt: Date | null;
  readyAt: Date | null;
  disableError: string | null;
  disableMessage: string | null;
  /** Linked to the platform's simulator (src/platforms/simulators.ts) instead of the platform. */
  simulated: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface ConnectionRow {
  id: string;
  organization_id: string;
  environment: Environment;
  platform: string | null;
  name: string | null;
  status: ConnectionStatus;
  access_token_ciphertext: Buffer;
  /** Null only for a row written before migration 0018 that the start-up step has not sealed yet. */
  link_token_ciphertext: Buffer | null;
  store_unique_id: string | null;
  store_name: string | null;
  store_domain: string | null;
  credentials_ciphertext: Buffer | null;
  oauth_tokens_ciphertext: Buffer | null;
  sync_config: unknown;
  scope: string | null;
  redirect_url: string | null;
  default_subsidiary_id: string | null;
  linked_at: Date | null;
  ready_at: Date | null;
  disable_error: string | null;
  disable_message: string | null;
  simulated: boolean;
  created_at: Date;
  updated_at: Date;
}

export const CONNECTION_COLUMNS = `id, organization_id, environment, platform, name, status, access_token_ciphertext, link_token_ciphertext,
  store_unique_id, store_name, store_domain, credentials_ciphertext, oauth_tokens_ciphertext, sync_config, scope, redirect_url,
  default_subsidiary_id, linked_at, ready_at, disable_error, disable_message, simulated, created_at, updated_at`;

function sealedLinkToken(row: ConnectionRow): Buffer {
  // Sealed by the start-up step before any process serves (src/connections/seal-link-tokens.ts).
  if (row.link_token_ciphertext === null)
    throw new Error(`connection ${row.id}: its link token is not sealed yet (start the service once to seal it)`);
  return row.link_token_ciphertext;
}

export function toConnectionRecord(row: ConnectionRow): ConnectionRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environment: row.environment,
    platform: row.platform,
    name: row.name,
    status: row.status,
    accessTokenCiphertext: row.access_token_ciphertext,
    linkTokenCiphertext: sealedLinkToken(row),
    storeUniqueId: row.store_unique_id,
    storeName: row.store_name,
    storeDomain: row.store_domain,
    credentialsCiphertext: row.credentials_ciphertext,
    oauthTokensCiphertext: row.oauth_tokens_ciphertext,
    syncConfig: row.sync_config,
    scope: row.scope,
    redirectUrl: row.redirect_url,
    defaultSubsidiaryId: row.default_subsidiary_id,
    linkedAt: row.linked_at,
    readyAt: row.ready_at,
    disableError: row.disable_error,
    disableMessage: row.disable_message,
    simulated: row.simulated,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
