/**
 * Process start-up shared by the server, the worker and the CLI: config,
 * database (embedded unless DATABASE_URL), migrations, encryption key, services.
 */
import { createHmac } from 'node:crypto';
import { loadConfig, type Config } from './config.ts';
import { createKeyRing } from './crypto/secrets.ts';
import { openDatabase, type OpenDatabase } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { createPool } from './db/pool.ts';
import { OrganizationGate } from './db/organization-gate.ts';
import { postgresRateLimiter, redisRateLimiter } from './ratelimit/limiter.ts';
import { VersionRegistry } from './http/versioning.ts';
import { registerVersionChanges } from './http/version-changes.ts';
import { inviteUser, signInUrl } from './users/users.ts';
import { bootstrapAdmin, firstStartBanner, resolveEncryptionKey, verifyEncryptionKey } from './tenants/bootstrap.ts';
import type { Services } from './services.ts';
import { createBoss, type PgBoss } from './queue/boss.ts';
import { createQueues } from './jobs/queues.ts';
import { bossSender } from './queue/sender.ts';
import type { FastifyInstance } from 'fastify';
import { replaceConnector } from './platforms/registry.ts';
import { registerSimulator } from './platforms/simulators.ts';
import { sandboxOptionsFromEnv, sandboxPlugin, type SandboxPlugin } from '../packages/sandbox/src/plugin.ts';
import { JobWaiter } from './writes/waiter.ts';
import { ConnectionCache } from './connections/access-token-cache.ts';
import { sealLegacyLinkTokens } from './connections/seal-link-tokens.ts';
import { productionRedirectsWithoutList } from './sql/redirect-urls.ts';
import { createLogger, type Logger } from './log/logger.ts';

export interface Runtime {
  /** The API's: `pool` is the API pool, whose checkouts for a request count against its organisation. */
  services: Services;
  /** The same services for the job workers: `pool` is the worker pool (syncs, writes, schedules). */
  workerServices: Services;
  /** The same for the webhook dispatcher: `pool` is its own pool, so neither reads nor syncs can starve deliveries. */
  webhookServices: Services;
  boss: PgBoss;
  /** What the optional plugins this process hosts mount on the app (SANDBOX's pages when SANDBOX_ENABLED): pass to buildApp. */
  mounts: ((app: FastifyInstance) => void)[];
  /** The SANDBOX plugin this process hosts, null when SANDBOX_ENABLED=false: benchmarks reach its platform. */
  sandbox: SandboxPlugin | null;
  databaseUrl: string;
  close(): Promise<void>;
}

export async function startRuntime(options: {
  log: (m: string) => void;
  config?: Config;
  schedule?: boolean;
  /** Opened already (src/server.ts starts it while the modules load); else opened here. */
  database?: OpenDatabase;
  /** The process's structured log; default pino on stderr (the CLI's stdout is its answer). */
  logger?: Logger;
}): Promise<Runtime> {
  const config = options.config ?? loadConfig();
  const logger = options.logger ?? createLogger({ level: config.logLevel, role: 'cli', destination: process.stderr });
  const { url, embedded } = options.database ?? (await openDatabase(config, options.log));
  // Three pools, so no kind of work can take every connection from another (docs/architecture.md). Each opens
  // connections only when used: an API-only process never opens its worker pool's.
  const { databasePools, databaseAcquireTimeoutMs, organizationDatabase } = config;
  const pool = createPool(url, {
    max: databasePools.api,
    applicationName: 'ledgerport-api',
    acquireTimeoutMs: databaseAcquireTimeoutMs,
    gate: new OrganizationGate(organizationDatabase),
  });
  const workerPool = createPool(url, { max: databasePools.worker, applicationName: 'ledgerport-worker' });
  const webhookPool = createPool(url, { max: databasePools.webhooks, applicationName: 'ledgerport-webhooks' });
  const endPools = (): Promise<unknown> => Promise.all([pool.end(), workerPool.end(), webhookPool.end()]);
  const boss = createBoss(url, { schedule: options.schedule ?? false });
  boss.on('error', (error: Error) => {
    options.log(`job queue error: ${error.message}`);
  });
  // pg-boss installs or checks its own schema (pgboss) while ours migrates: neither touches the other's.
  const bossStarted = boss.start();
  try {
    const [applied] = await Promise.all([migrate(pool), bossStarted]);
    if (applied.length > 0) options.log(`applied migrations ${applied.join(', ')}`);
    // SANDBOX, when this process hosts it (SANDBOX_ENABLED, default true), keeps its books in this database, in schema
    // sandbox_platform, which its own migrations make; off, neither the schema nor the platform exists.
    const sandbox = config.sandboxEnabled
      ? sandboxPlugin({ pool: workerPool, options: { ...sandboxOptionsFromEnv(), publicUrl: config.publicUrl } })
      : null;
    if (sandbox !== null) {
      const sandboxApplied = await sandbox.migrate();
      if (sandboxApplied.length > 0) options.log(`applied SANDBOX migrations ${sandboxApplied.join(', ')}`);
      // Replacing: a test or benchmark process may start more than one runtime, each with its own SANDBOX.
      replaceConnector(sandbox.connector);
      for (const simulator of sandbox.simulators) registerSimulator(simulator);
    }
    const { key: encryptionKey, source: encryptionKeySource } = await resolveEncryptionKey(config, options.log);
    // The key ring: ENCRYPTION_KEY seals, it and ENCRYPTION_KEY_PREVIOUS open (a rotation under way: docs/operations.md).
    const cipher = createKeyRing(encryptionKey, config.encryptionKeysPrevious);
    const urlSigningKeyOf = (key: Buffer): Buffer => createHmac('sha256', key).update('ledgerport url signing').digest();
    const urlSigningKey = urlSigningKeyOf(encryptionKey);
    const previousUrlSigningKeys = config.encryptionKeysPrevious.map(urlSigningKeyOf);
    const { checkSealedWithCurrentKey } = await verifyEncryptionKey(pool, cipher, encryptionKeySource);
    if (cipher.previousKeyIds.length > 0 || !checkSealedWithCurrentKey)
      options.log(
        `encryption keys: current ${cipher.currentKeyId}, previous ${cipher.previousKeyIds.join(', ') || 'none'}; ${checkSealedWithCurrentKey ? 'the key check is sealed with the current key' : 'the key check is still sealed with a previous key'}: \`ledgerport rotate-encryption-key\` re-seals every value with the current key and says when a previous key may go`,
      );
    // Link tokens of connections written before migration 0018 are sealed now, before anything serves them.
    const sealed = await sealLegacyLinkTokens(pool, cipher);
    if (sealed > 0) options.log(`sealed the link tokens of ${sealed} connections`);
    for (const unlisted of await productionRedirectsWithoutList(pool)) {
      options.log(
        `organisation ${unlisted.organization_id}: ${unlisted.connections} production connections have a redirect_url but no production redirect URL list is set, so their link flows refuse to redirect; set one (PUT /admin/organizations/${unlisted.organization_id}/redirect_urls, docs/security.md "Redirects")`,
      );
    }
    const { adminTokenSha256, firstStart } = await bootstrapAdmin(pool, cipher, config, async (organizationId) => {
      const email = config.dashboard.firstAdminEmail;
      const { signInToken } = await inviteUser(pool, organizationId, { email, role: 'admin' }, 'first_admin');
      return { email, sign_in_url: signInUrl(config.publicUrl, signInToken) };
    });
    if (firstStart !== null) process.stdout.write(firstStartBanner(firstStart));
    const rateLimiter =
      config.redisUrl !== null
        ? redisRateLimiter(config.redisUrl, config.rateLimit.limit, config.rateLimit.windowSeconds)
        : postgresRateLimiter(pool, config.rateLimit.limit, config.rateLimit.windowSeconds);
    const versions = new VersionRegistry();
    registerVersionChanges(versions);
    await createQueues(boss);
    const jobWaiter = new JobWaiter(pool);
    const connectionCache = new ConnectionCache(pool, config.connectionCacheSeconds);
    const services: Services = {
      config,
      pool,
      cipher,
      rateLimiter,
      versions,
      adminTokenSha256,
      idempotencyWaitMs: 10_000,
      jobs: bossSender(boss),
      urlSigningKey,
      previousUrlSigningKeys,
      jobWaiter,
      writeSyncWaitMs: config.writeSyncWaitSeconds * 1000,
      connectionCache,
      log: logger,
    };
    return {
      services,
      workerServices: { ...services, pool: workerPool },
      webhookServices: { ...services, pool: webhookPool },
      boss,
      mounts: sandbox === null ? [] : [sandbox.pages],
      sandbox,
      databaseUrl: url,
      async close() {
        await boss.stop({ graceful: true, timeout: 20_000 });
        await jobWaiter.close();
        await connectionCache.close();
        await rateLimiter.close();
        await endPools();
        if (embedded !== null) await embedded.stop();
      },
    };
  } catch (error) {
    await bossStarted.then(() => boss.stop({ graceful: false })).catch(() => undefined);
    await endPools();
    if (embedded !== null) await embedded.stop();
    throw error;
  }
}
