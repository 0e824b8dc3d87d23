/**
 * The OpenAPI document the service serves, built without a database (no request is answered): for the response
 * schema snapshot (scripts/api-snapshot.ts, src/http/api-snapshot.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { ConnectionCache } from '../../src/connections/access-token-cache.ts';
import { createCipher, sha256 } from '../../src/crypto/secrets.ts';
import { createPool } from '../../src/db/pool.ts';
import type { ApiDocument } from '../../src/http/api-snapshot.ts';
import { registerVersionChanges } from '../../src/http/version-changes.ts';
import { VersionRegistry } from '../../src/http/versioning.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { postgresRateLimiter } from '../../src/ratelimit/limiter.ts';
import type { Services } from '../../src/services.ts';
import { JobWaiter } from '../../src/writes/waiter.ts';

/** `env` over the defaults: PUBLIC_URL, for the document as an operator's deployment serves it (its `servers`). */
export async function servedOpenApiDocument(env: Record<string, string> = {}): Promise<{ document: ApiDocument; versions: VersionRegistry }> {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/ledgerport-openapi-document', ...env });
  // Never connected: building the app reads nothing from the database.
  const pool = createPool('postgresql://127.0.0.1:1/unused', { max: 1 });
  const versions = new VersionRegistry();
  registerVersionChanges(versions);
  const services: Services = {
    config,
    pool,
    cipher: createCipher(randomBytes(32)),
    rateLimiter: postgresRateLimiter(pool, config.rateLimit.limit, config.rateLimit.windowSeconds),
    versions,
    adminTokenSha256: sha256('unused'),
    idempotencyWaitMs: 0,
    jobs: { send: () => Promise.reject(new Error('no jobs here')) },
    urlSigningKey: randomBytes(32),
    previousUrlSigningKeys: [],
    jobWaiter: new JobWaiter(pool),
    writeSyncWaitMs: 0,
    connectionCache: new ConnectionCache(pool, 0),
    log: silentLogger(),
  };
  const app = await buildApp(services, { logger: false });
  try {
    // The document is plain JSON (what GET /openapi.json serves).
    return { document: JSON.parse(JSON.stringify(app.swagger())) as ApiDocument, versions };
  } finally {
    await app.close();
    await pool.end();
  }
}
