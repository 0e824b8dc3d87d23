/** A SANDBOX connection of a test app, initially synced, and helpers to read its stored copy and events. */
import { expect } from 'vitest';
import { accessTokenOf, createConnection } from '../../src/connections/connections.ts';
import type { ConnectionRecord } from '../../src/connections/types.ts';
import type { Cipher } from '../../src/crypto/secrets.ts';
import { deliveredBody, type SealedSlots } from '../../src/events/access-token-slot.ts';
import type { Pool } from '../../src/db/pool.ts';
import type { Connector } from '../../src/platforms/connector.ts';
import { connectorContext } from '../../src/platforms/context.ts';
import { requestSync } from '../../src/sync/requests.ts';
import { runSync } from '../../src/sync/runner.ts';
import type { CreatedOrganization } from '../../src/tenants/organizations.ts';
import type { Tenant } from '../../src/tenants/types.ts';
import type { TestApp } from './app.ts';
import { registeredSandboxConnector } from './sandbox.ts';

export interface SyncedConnection {
  connection: ConnectionRecord;
  token: string;
}

/** A linked SANDBOX connection whose initial sync has not run. */
export async function sandboxConnection(t: TestApp, user: string, org: CreatedOrganization = t.org): Promise<ConnectionRecord> {
  const tenant: Tenant = { organizationId: org.organization.id, environment: 'sandbox' };
  return linkSandboxConnection(t.db.pool, t.services.cipher, tenant, user, t.sandbox.connector);
}

/**
 * The same without a test app (fault tests, whose service runs as a child process): `tenant`'s connection to `user`'s
 * books, identified by default through the registered SANDBOX connector (startTestSandbox's, or a runtime's).
 */
export async function linkSandboxConnection(
  pool: Pool,
  cipher: Cipher,
  tenant: Tenant,
  user: string,
  connector: Connector = registeredSandboxConnector(),
): Promise<ConnectionRecord> {
  const credentials = { basic_username: user, basic_password: 'pass_good' };
  const identity = await connector.identify(
    connectorContext({ connector, connectionId: 'probe', credentials, tokens: null, environment: 'sandbox', db: pool }),
  );
  const { connection } = await createConnection(pool, cipher, tenant, {
    platform: 'SANDBOX',
    name: null,
    credentials,
    identity,
    syncConfig: { historical_months: 0 },
    scope: null,
    marketplace: null,
    redirectUrl: null,
  });
  return connection;
}

export async function syncedSandboxConnection(t: TestApp, user: string, org: CreatedOrganization = t.org): Promise<SyncedConnection> {
  const connection = await sandboxConnection(t, user, org);
  const run = await requestSync(t.db.pool, t.services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
  await runToEnd(t, run.id);
  const ready = await t.db.pool.query<{ ready_at: Date | null }>('SELECT ready_at FROM connections WHERE id = $1', [connection.id]);
  expect(ready.rows[0]?.ready_at).not.toBeNull();
  return { connection: { ...connection, readyAt: ready.rows[0]?.ready_at ?? null }, token: accessTokenOf(t.services.cipher, connection) };
}

/** Runs a sync run as the worker would: again after a retryable failure (a scenario account's 429s), up to a few times. */
async function runToEnd(t: TestApp, runId: string): Promise<void> {
  let outcome = await runSync(t.services, runId, new AbortController().signal);
  for (let attempt = 1; outcome === 'retry' && attempt < 5; attempt++) outcome = await runSync(t.services, runId, new AbortController().signal);
  expect(outcome).toBe('completed');
}

/** Runs an incremental sync of the connection to its end. */
export async function incrementalSync(t: TestApp, connectionId: string): Promise<void> {
  const run = await requestSync(t.db.pool, t.services.jobs, connectionId, { kind: 'incremental', trigger: 'api', details: {} });
  await runToEnd(t, run.id);
}

type Json = Record<string, unknown>;

/** A live stored record of the type whose unified object passes `where`. */
export async function storedWhere(t: TestApp, connectionId: string, type: string, where: (data: Json) => boolean): Promise<Json & { id: string }> {
  const result = await t.db.pool.query<{ data: Json & { id: string } }>(
    'SELECT data FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL ORDER BY platform_id',
    [connectionId, type],
  );
  const found = result.rows.map((r) => r.data).find(where);
  if (found === undefined) throw new Error(`no stored ${type} matches`);
  return found;
}

export interface StoredEvent {
  code: string;
  payload: Json;
}

/** The connection's events with their payloads as webhooks deliver them (the sealed access token put back). */
export async function eventsOf(t: TestApp, connectionId: string): Promise<StoredEvent[]> {
  const result = await t.db.pool.query<StoredEvent & SealedSlots>(
    'SELECT code, payload, access_token_ciphertext, update_url_ciphertext FROM events WHERE connection_id = $1 ORDER BY created_at, id',
    [connectionId],
  );
  return result.rows.map((row) => ({ code: row.code, payload: deliveredBody(t.services.cipher, row.payload, row).body as Json }));
}
