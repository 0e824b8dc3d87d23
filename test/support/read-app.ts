/**
 * A test app for read endpoints: a synced SANDBOX connection and a QuickBooks Online stand-in the service points at
 * (its connections made with `quickbooks()`), with GET helpers that add the access token.
 */
import { expect } from 'vitest';
import { clientHeaders, json, startTestApp, type TestApp } from './app.ts';
import { setEnv } from './env.ts';
import { syncedQuickBooksConnection } from './oauth-connection.ts';
import { syncedSandboxConnection, type SyncedConnection } from './sandbox-connection.ts';
import { startQuickBooksStandIn, type QuickBooksStandIn } from '../standins/quickbooks/index.ts';
import type { ConnectionRecord } from '../../src/connections/types.ts';
import type { LightMyRequestResponse } from 'fastify';

type Json = Record<string, unknown>;

export interface ReadApp {
  t: TestApp;
  /** The synced SANDBOX connection. */
  c: SyncedConnection;
  qbo: QuickBooksStandIn;
  get(url: string, token: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** GET answered 200: its body. */
  ok(url: string, token?: string): Promise<Json>;
  /** A QUICKBOOKS connection to the stand-in's company, synced. */
  quickbooks(): Promise<{ connection: ConnectionRecord; token: string }>;
  close(): Promise<void>;
}

export async function startReadApp(sandboxUser: string): Promise<ReadApp> {
  const app = { clientId: `ABqbo-${sandboxUser}`, clientSecret: 'qbo-read-secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' };
  const qbo = await startQuickBooksStandIn({ generatedBills: 0 });
  qbo.registerClient(app);
  const restoreEnv = setEnv({ QUICKBOOKS_API_URL: qbo.url, QUICKBOOKS_TOKEN_URL: `${qbo.url}/oauth2/v1/tokens/bearer` });
  const t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  const c = await syncedSandboxConnection(t, sandboxUser);
  const get: ReadApp['get'] = (url, token, headers = clientHeaders(t.org)) =>
    t.app.inject({ method: 'GET', url: `/versioned${url}${url.includes('?') ? '&' : '?'}access_token=${token}`, headers });
  return {
    t,
    c,
    qbo,
    get,
    async ok(url, token = c.token) {
      const response = await get(url, token);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      return json(response);
    },
    quickbooks: () => syncedQuickBooksConnection(t, qbo, app),
    async close() {
      await t.close();
      await qbo.close();
      restoreEnv();
    },
  };
}
