/** Everything a request handler may need, built once per process: the domain's CoreServices and the edge's own. */
import type { CoreServices } from './core-services.ts';
import type { RateLimiter } from './ratelimit/limiter.ts';
import type { VersionRegistry } from './http/versioning.ts';
import type { JobWaiter } from './writes/waiter.ts';
import type { ConnectionCache } from './connections/access-token-cache.ts';

export interface Services extends CoreServices {
  rateLimiter: RateLimiter;
  versions: VersionRegistry;
  /** SHA-256 of the admin token (configured, or generated on first start). */
  adminTokenSha256: Buffer;
  /** How long a duplicate request waits for the first one with the same Idempotency-Key. */
  idempotencyWaitMs: number;
  /** Wakes prefer_sync writes when their job finishes. */
  jobWaiter: JobWaiter;
  /** How long a prefer_sync write waits for its job before answering with async_response. */
  writeSyncWaitMs: number;
  /** Connections by access token for the data reads (src/connections/access-token-cache.ts). */
  connectionCache: ConnectionCache;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
