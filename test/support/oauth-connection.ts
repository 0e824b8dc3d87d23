/**
 * A linked OAuth connection of a test app (XERO, QUICKBOOKS, …) without the
 * browser: the organisation's OAuth app registered, tokens stored sealed as the
 * link flow stores them. Sync it with syncConnection / incrementalSync.
 */
import { expect } from 'vitest';
import { accessTokenOf, createConnection } from '../../src/connections/connections.ts';
import type { ConnectionRecord } from '../../src/connections/types.ts';
import type { AccountIdentity, OAuthAppCredentials, OAuthTokens } from '../../src/platforms/connector.ts';
import { sealJson } from '../../src/platforms/context.ts';
import { upsertOAuthApp } from '../../src/sql/oauth-apps.ts';
import { requestSync } from '../../src/sync/requests.ts';
import { runSync, type RunOutcome } from '../../src/sync/runner.ts';
import type { CreatedOrganization } from '../../src/tenants/organizations.ts';
import type { TestApp } from './app.ts';

export interface OAuthConnectionInput {
  platform: string;
  app: OAuthAppCredentials & { webhookKey?: string };
  tokens: OAuthTokens;
  identity: AccountIdentity;
  org?: CreatedOrganization;
  syncConfig?: unknown;
}

export async function registerOAuthApp(
  t: TestApp,
  platform: string,
  app: OAuthAppCredentials & { webhookKey?: string },
  org: CreatedOrganization = t.org,
): Promise<void> {
  await upsertOAuthApp(t.db.pool, {
    organizationId: org.organization.id,
    environment: 'sandbox',
    platform,
    clientId: app.clientId,
    clientSecretCiphertext: t.services.cipher.encrypt(app.clientSecret),
    redirectUri: app.redirectUri,
    webhookKeyCiphertext: app.webhookKey === undefined ? null : t.services.cipher.encrypt(app.webhookKey),
  });
}

export async function oauthConnection(t: TestApp, input: OAuthConnectionInput): Promise<{ connection: ConnectionRecord; token: string }> {
  const org = input.org ?? t.org;
  await registerOAuthApp(t, input.platform, input.app, org);
  const { connection } = await createConnection(
    t.db.pool,
    t.services.cipher,
    { organizationId: org.organization.id, environment: 'sandbox' },
    {
      platform: input.platform,
      name: null,
      credentials: null,
      identity: input.identity,
      syncConfig: input.syncConfig ?? { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  await t.db.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [
    connection.id,
    sealJson(t.services.cipher, input.tokens),
  ]);
  return { connection, token: accessTokenOf(t.services.cipher, connection) };
}

/** The connection's stored tokens, as the token manager left them. */
export async function storedTokens(t: TestApp, connectionId: string): Promise<OAuthTokens | null> {
  const result = await t.db.pool.query<{ sealed: Buffer | null }>('SELECT oauth_tokens_ciphertext AS sealed FROM connections WHERE id = $1', [
    connectionId,
  ]);
  const sealed = result.rows[0]?.sealed ?? null;
  return sealed === null ? null : (JSON.parse(t.services.cipher.decrypt(sealed)) as OAuthTokens);
}

/**
 * Requests a sync and runs it as the worker would, again after a retryable
 * failure, and returns the last outcome (expect 'completed' unless testing failures).
 */
export async function syncConnection(t: TestApp, connectionId: string, kind: 'initial' | 'incremental', maxRuns = 5): Promise<RunOutcome> {
  const run = await requestSync(t.db.pool, t.services.jobs, connectionId, { kind, trigger: 'api', details: {} });
  let outcome = await runSync(t.services, run.id, new AbortController().signal);
  for (let attempt = 1; outcome === 'retry' && attempt < maxRuns; attempt++)
    outcome = await runSync(t.services, run.id, new AbortController().signal);
  return outcome;
}

export async function expectSynced(t: TestApp, connectionId: string, kind: 'initial' | 'incremental'): Promise<void> {
  expect(await syncConnection(t, connectionId, kind)).toBe('completed');
}

/** A QUICKBOOKS connection to the stand-in's default company, its initial sync run (the env must point at the stand-in). */
export async function syncedQuickBooksConnection(
  t: TestApp,
  qbo: { realmId: string; company(realmId: string): { name: string }; issueTokens(input: { clientId: string; realmId: string }): OAuthTokens },
  app: { clientId: string; clientSecret: string; redirectUri: string },
): Promise<{ connection: ConnectionRecord; token: string }> {
  const linked = await oauthConnection(t, {
    platform: 'QUICKBOOKS',
    app,
    tokens: qbo.issueTokens({ clientId: app.clientId, realmId: qbo.realmId }),
    identity: { storeUniqueId: qbo.realmId, storeName: qbo.company(qbo.realmId).name },
  });
  await expectSynced(t, linked.connection.id, 'initial');
  return linked;
}
