/**
 * A real application on a fresh database for one test file: real SQL, real
 * hooks, requests through Fastify's inject (or a real port when asked).
 */
import { ConnectionCache } from '../../src/connections/access-token-cache.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createCipher, sha256 } from '../../src/crypto/secrets.ts';
import type { Endpoint } from '../../src/http/contract.ts';
import { registerVersionChanges } from '../../src/http/version-changes.ts';
import { VersionRegistry } from '../../src/http/versioning.ts';
import { postgresRateLimiter, type RateLimiter } from '../../src/ratelimit/limiter.ts';
import type { Services } from '../../src/services.ts';
import { createBoss, type PgBoss } from '../../src/queue/boss.ts';
import { bossSender } from '../../src/queue/sender.ts';
import { registerSimulator } from '../../src/platforms/simulators.ts';
import type { SandboxOptions, SandboxPlugin } from '../../packages/sandbox/src/plugin.ts';
import { createOrganization, type CreatedOrganization } from '../../src/tenants/organizations.ts';
import type { Environment } from '../../src/tenants/types.ts';
import { JobWaiter } from '../../src/writes/waiter.ts';
import { silentLogger, type Logger } from '../../src/log/logger.ts';
import { createTestDatabase, type TestDatabase, type TestServer } from './database.ts';
import { startTestSandbox } from './sandbox.ts';
import { createPool } from '../../src/db/pool.ts';
import { OrganizationGate } from '../../src/db/organization-gate.ts';
import { checkResponsesAgainstDocument } from './contract-check.ts';

export const VERSION = '2024-08-31';

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  services: Services;
  boss: PgBoss;
  adminToken: string;
  org: CreatedOrganization;
  /** The app's SANDBOX: its platform (to move its time: sandbox.platform.advance) and its registered connector. */
  sandbox: SandboxPlugin;
  /** Creates another organisation (for cross-tenant tests). */
  newOrg(name?: string): Promise<CreatedOrganization>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  server?: TestServer;
  config?: Partial<Config>;
  rateLimiter?: RateLimiter;
  extraVersionedEndpoints?: Endpoint[];
  /** The service's log (API requests and the jobs it runs); default silent. */
  log?: Logger;
  idempotencyWaitMs?: number;
  writeSyncWaitMs?: number;
  /** ENCRYPTION_KEY of the app (32 bytes): worker processes on its database must share it; default random. */
  encryptionKey?: Buffer;
  /** Options of the app's SANDBOX platform over the test defaults (tickIntervalMs 0: time moves only through advance()). */
  sandbox?: Partial<SandboxOptions>;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(options.server ?? 'embedded');
  const base = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/ledgerport-test-data' });
  // Exact connection lookups unless a test asks for the cache: many tests change a connection in the database and read
  // at once, and the cache sees that change only when its notification arrives (its own test checks that it does).
  // Many tests fail authentication on purpose, all from 127.0.0.1: the failed-authentication throttle is out of their way
  // unless a test sets its own limits (its tests do: test/edge/auth-throttle.test.ts); the service's defaults are unchanged.
  const authFailures = { perAddress: 1_000_000, perTarget: 1_000_000, windowSeconds: 60, webhookRefusalDelayMs: 0 };
  // Every mapped object must fit its unified schema: a violation fails the test's sync or write (src/sync/mapped-check.ts).
  const config: Config = { ...base, connectionCacheSeconds: 0, authFailures, strictMapping: true, ...options.config };
  const cipher = createCipher(options.encryptionKey ?? randomBytes(32));
  const adminToken = `test-admin-${randomBytes(8).toString('hex')}`;
  const versions = new VersionRegistry();
  registerVersionChanges(versions);
  // The service's own API pool (per-organisation gate, acquire timeout, its size); tests reach the data through db.pool.
  const apiPool = createPool(db.url, {
    max: config.databasePools.api,
    applicationName: 'ledgerport-api',
    acquireTimeoutMs: config.databaseAcquireTimeoutMs,
    gate: new OrganizationGate(config.organizationDatabase),
  });
  const services: Services = {
    config,
    pool: apiPool,
    cipher,
    rateLimiter: options.rateLimiter ?? postgresRateLimiter(db.pool, config.rateLimit.limit, config.rateLimit.windowSeconds),
    versions,
    adminTokenSha256: sha256(adminToken),
    idempotencyWaitMs: options.idempotencyWaitMs ?? 10_000,
    jobs: { send: () => Promise.reject(new Error('jobs not started')) },
    urlSigningKey: randomBytes(32),
    previousUrlSigningKeys: [],
    jobWaiter: new JobWaiter(db.pool),
    writeSyncWaitMs: options.writeSyncWaitMs ?? 10_000,
    connectionCache: new ConnectionCache(db.pool, config.connectionCacheSeconds),
    log: options.log ?? silentLogger(),
  };
  // SANDBOX on, as by default: registered (replacing an earlier app's of this file), its books in the test database
  // (migrated with the template), its pages mounted.
  const sandbox = startTestSandbox(db.pool, options.sandbox);
  for (const simulator of sandbox.simulators) registerSimulator(simulator);
  const boss = createBoss(db.url, { schedule: false });
  await boss.start();
  services.jobs = bossSender(boss);
  const app = await buildApp(services, {
    ...(options.log === undefined ? { logger: false } : {}),
    extraVersionedEndpoints: options.extraVersionedEndpoints ?? [],
    // Last: every answer, as sent, is checked against /openapi.json (test/support/contract-check.ts).
    mounts: [sandbox.pages, checkResponsesAgainstDocument],
  });
  const org = await createOrganization(db.pool, cipher, 'Test Org');
  return {
    app,
    db,
    services,
    adminToken,
    org,
    sandbox,
    newOrg: (name = 'Other Org') => createOrganization(db.pool, cipher, name),
    boss,
    async close() {
      // The test database is dropped WITH (FORCE) last: a pg-boss connection still closing then is terminated
      // (57P01, admin_shutdown), which pg-boss emits as an 'error' event; that one is expected, any other is not.
      boss.on('error', (error: Error & { code?: string }) => {
        if (error.code !== '57P01') throw error;
      });
      await app.close();
      await boss.stop({ graceful: false, close: true });
      await services.jobWaiter.close();
      await services.connectionCache.close();
      await services.rateLimiter.close();
      await apiPool.end();
      await db.close();
    },
  };
}

export function basicAuth(org: CreatedOrganization, environment: Environment = 'sandbox'): string {
  const { client_id, client_secret } = org.credentials[environment];
  return `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`;
}

/** Headers of a well-formed /versioned request. */
export function clientHeaders(org: CreatedOrganization, environment: Environment = 'sandbox'): Record<string, string> {
  return { authorization: basicAuth(org, environment), 'x-service-version': VERSION };
}

export type Json = Record<string, unknown>;

export function json(response: LightMyRequestResponse): Json {
  return JSON.parse(response.body) as Json;
}

/** Asserts the spec's error body and returns it. */
export function errorBody(response: LightMyRequestResponse): {
  error_type: string;
  error_code: string;
  error_message: string;
  error_metadata?: Record<string, unknown>;
} {
  const body = json(response) as { error_type: string; error_code: string; error_message: string; error_metadata?: Record<string, unknown> };
  if (typeof body.error_type !== 'string' || typeof body.error_code !== 'string' || typeof body.error_message !== 'string') {
    throw new Error(`not an error body: ${response.body}`);
  }
  return body;
}
