/** Everything a request handler or job may need, built once per process. */
import type { Config } from './config.ts';
import type { Cipher } from './crypto/secrets.ts';
import type { Pool } from './db/pool.ts';
import type { RateLimiter } from './ratelimit/limiter.ts';
import type { VersionRegistry } from './http/versioning.ts';
import type { JobSender } from './jobs/sender.ts';
import type { JobWaiter } from './writes/waiter.ts';
import type { ConnectionCache } from './connections/access-token-cache.ts';
import type { Logger } from './log/logger.ts';

export interface Services {
  config: Config;
  pool: Pool;
  cipher: Cipher;
  rateLimiter: RateLimiter;
  versions: VersionRegistry;
  /** SHA-256 of the admin token (configured, or generated on first start). */
  adminTokenSha256: Buffer;
  /** How long a duplicate request waits for the first one with the same Idempotency-Key. */
  idempotencyWaitMs: number;
  jobs: JobSender;
  /** Signs file download URLs (derived from the encryption key, so every process agrees). */
  urlSigningKey: Buffer;
  /** Wakes prefer_sync writes when their job finishes. */
  jobWaiter: JobWaiter;
  /** How long a prefer_sync write waits for its job before answering with async_response. */
  writeSyncWaitMs: number;
  /** Connections by access token for the data reads (src/connections/access-token-cache.ts). */
  connectionCache: ConnectionCache;
  /** The process's structured log (src/log/logger.ts); jobs add their ids with withIds. */
  log: Logger;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
