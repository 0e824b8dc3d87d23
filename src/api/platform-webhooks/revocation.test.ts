/**
 * A platform notification that the business revoked our access (Shopify's app/uninstalled, Stripe's
 * account.application.deauthorized) moves each connection to that account to needs_reauth with CONNECTION_NEEDS_UPDATE
 * at once; accounts are matched by store_unique_id or by store_domain (Shopify names shops by domain), and the
 * connection serves its store_domain. Another organisation's connection to the same account is not touched.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { registerOAuthApp } from '../../../test/support/oauth-connection.ts';
import { testConnector } from '../../../test/support/test-connector.ts';
import { accessTokenOf, createConnection } from '../../connections/connections.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import type { Connector, InboundHeaders } from '../../platforms/connector.ts';
import { getConnector, registerConnector } from '../../platforms/registry.ts';
import type { CreatedOrganization } from '../../tenants/organizations.ts';

const PLATFORM = 'REVOKING';
const KEY = 'revoking-webhook-key-0123456789';
const DOMAIN = 'corner-shop.example.com';
const OTHER_DOMAIN = 'other-shop.example.com';
const header = (headers: InboundHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

// Shopify's way: the account and the topic are in headers, the signature is an HMAC of the body.
const revoking: Connector = {
  ...testConnector,
  id: PLATFORM,
  name: 'Revoking',
  webhooks: {
    acknowledgeWithinMs: 5_000,
    verify: (rawBody, headers, key) => header(headers, 'x-signature') === createHmac('sha256', key).update(rawBody).digest('base64'),
    changes: (body, headers) => {
      const shop = header(headers, 'x-shop');
      if (typeof body !== 'object' || body === null || shop === undefined) return null;
      return header(headers, 'x-topic') === 'accounts/update' ? [{ account: shop, type: 'account', platformId: null }] : [];
    },
    revocations: (_body, headers) => {
      const shop = header(headers, 'x-shop');
      return header(headers, 'x-topic') === 'app/uninstalled' && shop !== undefined ? [{ account: shop, reason: 'app uninstalled' }] : [];
    },
  },
};

let t: TestApp;
let other: CreatedOrganization;

async function linkedConnection(org: CreatedOrganization, domain = DOMAIN): Promise<ConnectionRecord> {
  await registerOAuthApp(t, PLATFORM, { clientId: 'revoking', clientSecret: 'secret', redirectUri: 'http://127.0.0.1:9/cb', webhookKey: KEY }, org);
  const { connection } = await createConnection(
    t.db.pool,
    t.services.cipher,
    { organizationId: org.organization.id, environment: 'sandbox' },
    {
      platform: PLATFORM,
      name: null,
      credentials: { basic_username: 'corner', basic_password: 'secret' },
      identity: { storeUniqueId: `id-of-${domain}`, storeName: 'Corner Shop', storeDomain: domain },
      syncConfig: { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  await t.db.pool.query(`UPDATE connections SET status = 'active', linked_at = now(), ready_at = now() WHERE id = $1`, [connection.id]);
  return connection;
}

function post(org: CreatedOrganization, topic: string, body = JSON.stringify({ id: 1000001 }), domain = DOMAIN) {
  return t.app.inject({
    method: 'POST',
    url: `/platform-webhooks/${PLATFORM}/${org.organization.id}/sandbox`,
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-topic': topic,
      'x-shop': domain,
      'x-signature': createHmac('sha256', KEY).update(body).digest('base64'),
    },
  });
}

const statusOf = async (id: string) =>
  (await t.db.pool.query<{ status: string }>('SELECT status FROM connections WHERE id = $1', [id])).rows[0]?.status;
const needsUpdateEvents = async (id: string) =>
  Number(
    (await t.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM events WHERE connection_id = $1 AND code = 'CONNECTION_NEEDS_UPDATE'`, [id]))
      .rows[0]?.n,
  );

beforeAll(async () => {
  if (getConnector(PLATFORM) === undefined) registerConnector(revoking);
  t = await startTestApp();
  other = await t.newOrg();
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('platform webhooks that revoke access', () => {
  it('serves the store domain and matches a change named by domain', async () => {
    const connection = await linkedConnection(t.org);
    const token = accessTokenOf(t.services.cipher, connection);
    const served = json(
      await t.app.inject({ method: 'GET', url: `/versioned/connections/access_token?access_token=${token}`, headers: clientHeaders(t.org) }),
    );
    expect(served.connection).toMatchObject({ store_domain: DOMAIN });
    const answer = await post(t.org, 'accounts/update', JSON.stringify({ id: 1, changed: 'name' }));
    expect(answer.statusCode).toBe(200);
    expect(json(answer)).toMatchObject({ changes: 1, sync_runs: 1, revoked: 0, duplicate: false });
  });

  it('moves the connection to needs_reauth with CONNECTION_NEEDS_UPDATE, once, and leaves other organisations alone', async () => {
    const mine = await linkedConnection(t.org, OTHER_DOMAIN);
    const theirs = await linkedConnection(other, OTHER_DOMAIN);
    const uninstalled = JSON.stringify({ id: 1000002 });
    const answer = await post(t.org, 'app/uninstalled', uninstalled, OTHER_DOMAIN);
    expect(answer.statusCode).toBe(200);
    expect(json(answer)).toMatchObject({ changes: 0, revoked: 1, duplicate: false });
    expect(await statusOf(mine.id)).toBe('needs_reauth');
    expect(await needsUpdateEvents(mine.id)).toBe(1);
    expect(await statusOf(theirs.id)).toBe('active');
    expect(await needsUpdateEvents(theirs.id)).toBe(0);
    // The platform's retry of the same notification changes nothing more.
    expect(json(await post(t.org, 'app/uninstalled', uninstalled, OTHER_DOMAIN))).toMatchObject({ revoked: 0, duplicate: true });
    expect(await needsUpdateEvents(mine.id)).toBe(1);
  });

  it('refuses an unsigned revocation and changes nothing', async () => {
    const connection = await linkedConnection(other);
    const body = JSON.stringify({ id: 1000001, forged: true });
    const forged = await t.app.inject({
      method: 'POST',
      url: `/platform-webhooks/${PLATFORM}/${other.organization.id}/sandbox`,
      payload: body,
      headers: { 'content-type': 'application/json', 'x-topic': 'app/uninstalled', 'x-shop': DOMAIN, 'x-signature': 'bm90IGl0' },
    });
    expect(forged.statusCode).toBe(401);
    expect(await statusOf(connection.id)).toBe('active');
  });
});
