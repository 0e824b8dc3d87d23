/**
 * Process start-up shared by the server, the worker and the CLI: config,
 * database (embedded unless DATABASE_URL), migrations, encryption key, services.
 */
import { createHmac } from 'node:crypto';
import { loadConfig, type Config } from './config.ts';
import { createCipher } from './crypto/secrets.ts';
import { openDatabase, type OpenDatabase } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { createPool } from './db/pool.ts';
import { postgresRateLimiter, redisRateLimiter } from './ratelimit/limiter.ts';
import { VersionRegistry } from './http/versioning.ts';
import { registerVersionChanges } from './http/version-changes.ts';
import { bootstrapAdmin, firstStartBanner, resolveEncryptionKey, verifyEncryptionKey } from './tenants/bootstrap.ts';
import type { Services } from './services.ts';
import { createBoss, type PgBoss } from './jobs/boss.ts';
import { createQueues } from './jobs/queues.ts';
import { bossSender } from './jobs/sender.ts';
import { configureSandbox } from './platforms/sandbox/index.ts';
import { optionsFromEnv } from './platforms/sandbox/options.ts';
import { JobWaiter } from './writes/waiter.ts';
import { ConnectionCache } from './connections/access-token-cache.ts';

export interface Runtime {
  services: Services;
  boss: PgBoss;
  databaseUrl: string;
  close(): Promise<void>;
}

export async function startRuntime(options: {
  log: (m: string) => void;
  config?: Config;
  poolSize?: number;
  schedule?: boolean;
  /** Opened already (src/server.ts starts it while the modules load); else opened here. */
  database?: OpenDatabase;
}): Promise<Runtime> {
  const config = options.config ?? loadConfig();
  const { url, embedded } = options.database ?? await openDatabase(config, options.log);
  const pool = createPool(url, { max: options.poolSize ?? 20 });
  const boss = createBoss(url, { schedule: options.schedule ?? false });
  boss.on('error', (error: Error) => { options.log(`job queue error: ${error.message}`); });
  // pg-boss installs or checks its own schema (pgboss) while ours migrates: neither touches the other's.
  const bossStarted = boss.start();
  try {
    const [applied] = await Promise.all([migrate(pool), bossStarted]);
    if (applied.length > 0) options.log(`applied migrations ${applied.join(', ')}`);
    const encryptionKey = await resolveEncryptionKey(config, options.log);
    const cipher = createCipher(encryptionKey);
    const urlSigningKey = createHmac('sha256', encryptionKey).update('ledgerport url signing').digest();
    await verifyEncryptionKey(pool, cipher);
    const { adminTokenSha256, firstStart } = await bootstrapAdmin(pool, cipher, config);
    if (firstStart !== null) process.stdout.write(firstStartBanner(firstStart));
    const rateLimiter = config.redisUrl !== null
      ? redisRateLimiter(config.redisUrl, config.rateLimit.limit, config.rateLimit.windowSeconds)
      : postgresRateLimiter(pool, config.rateLimit.limit, config.rateLimit.windowSeconds);
    // The SANDBOX platform keeps its books in this database (schema sandbox_platform).
    configureSandbox({ pool, options: { ...optionsFromEnv(), publicUrl: config.publicUrl } });
    const versions = new VersionRegistry();
    registerVersionChanges(versions);
    await createQueues(boss);
    const jobWaiter = new JobWaiter(pool);
    const connectionCache = new ConnectionCache(pool, config.connectionCacheSeconds);
    const services: Services = {
      config, pool, cipher, rateLimiter, versions, adminTokenSha256, idempotencyWaitMs: 10_000, jobs: bossSender(boss), urlSigningKey,
      jobWaiter, writeSyncWaitMs: config.writeSyncWaitSeconds * 1000, connectionCache,
    };
    return {
      services,
      boss,
      databaseUrl: url,
      async close() {
        await boss.stop({ graceful: true, timeout: 20_000 });
        await jobWaiter.close();
        await connectionCache.close();
        await rateLimiter.close();
        await pool.end();
        if (embedded !== null) await embedded.stop();
      },
    };
  } catch (error) {
    await bossStarted.then(() => boss.stop({ graceful: false })).catch(() => undefined);
    await pool.end();
    if (embedded !== null) await embedded.stop();
    throw error;
  }
}
