/**
 * The service process, entered through src/main.ts: API + worker (the default),
 * --role=api or --role=worker. SIGTERM/SIGINT: stop accepting, drain requests,
 * stop workers, close the pool.
 */
import { flushCompileCache } from 'node:module';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Role } from './config.ts';
import { explainStartFailure, formatStartFailure, type StartSettings } from './errors/start-failure.ts';
import { openDatabase } from './db/open.ts';
import { collectStartupGarbage } from './startup-gc.ts';
import { createLogger, type Logger } from './log/logger.ts';
import { stdoutDestination } from './log/destination.ts';
import { tracingRequested } from './metrics/tracing-request.ts';

const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
const role = values.role as Role;
if (!['all', 'api', 'worker'].includes(role)) {
  process.stderr.write(`--role must be all, api or worker (got ${values.role})\n`);
  process.exit(2);
}

/**
 * Start-up, shutdown and database messages an operator must see whatever LOG_LEVEL says (credentials saved, the
 * embedded PostgreSQL attached or left running): a child of the process's log that writes info even when the
 * process's level is warn or above. Before the config is read, lines are written the same way by hand.
 */
let lifecycle: Logger | null = null;
/** Every line to stdout goes through it: a line it cannot write is dropped and counted, never waited for (src/log/destination.ts). */
const stdout = stdoutDestination();

function log(message: string): void {
  if (lifecycle !== null) lifecycle.info(message);
  else stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, role, msg: message })}\n`);
}

/** Set once the configuration is read: what a failed start's explanation names. */
let startSettings: StartSettings | null = null;

async function main(): Promise<void> {
  // Signal handlers first: a SIGTERM during start-up still shuts down cleanly.
  const closers: (() => Promise<void>)[] = [];
  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    const force = setTimeout(() => {
      log('shutdown took too long; exiting');
      process.exit(1);
    }, 30_000);
    force.unref();
    // Newest first: HTTP stops accepting and drains, then workers stop, then the pool and database.
    for (const close of closers.reverse()) {
      await close().catch((error: unknown) => {
        log(`error while stopping: ${String(error)}`);
      });
    }
    log('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => {
    void shutdown('SIGTERM');
  });
  process.on('SIGINT', () => {
    void shutdown('SIGINT');
  });

  const config = loadConfig();
  startSettings = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  // Traces only when an OTLP endpoint is configured: otherwise the SDK is never loaded (src/metrics/tracing-sdk.ts).
  const tracingSdk = tracingRequested() ? await import('./metrics/tracing-sdk.ts') : null;
  const tracing = tracingSdk === null ? null : await tracingSdk.startTracing({ role });
  if (tracing !== null) closers.push(() => tracing.shutdown());
  const logger = createLogger({ level: config.logLevel, role, traceIds: tracing !== null });
  lifecycle = logger.child({});
  // pino levels are per logger: a child may say more than its parent.
  if (!logger.isLevelEnabled('info')) lifecycle.level = 'info';
  // The application's modules load while PostgreSQL starts (initdb alone takes over a second on an empty
  // DATA_DIR). Loading them blocks this thread, so it begins once PostgreSQL's own processes are running.
  const postgresRunning = Promise.withResolvers<undefined>();
  const opening = openDatabase(config, log, () => {
    postgresRunning.resolve(undefined);
  });
  await Promise.race([postgresRunning.promise, opening]);
  const [database, { startRuntime }, { startWorkers }, { startWebhookDispatcher }, appModule, { ensureFirstAdmin, signInUrl }, { logLinesDropped }] =
    await Promise.all([
      opening,
      import('./runtime.ts'),
      import('./jobs/queues.ts'),
      import('./webhooks/dispatcher.ts'),
      role !== 'worker' ? import('./app.ts') : null,
      import('./users/users.ts'),
      import('./metrics/registry.ts'),
    ]);
  stdout.countDropsWith((lines) => {
    logLinesDropped.inc(lines);
  });
  const runtime = await startRuntime({ log, config, database, schedule: role !== 'api', logger });
  closers.push(() => runtime.close());
  // Upgraded from before the dashboard (or a first start that could not make its admin): one admin, printed once. The
  // serving process does it, not the CLI, whose stdout is its answer.
  const firstAdmin = await ensureFirstAdmin(runtime.services.pool, config.dashboard.firstAdminEmail);
  if (firstAdmin !== null) {
    stdout.write(
      `\n=== Ledgerport dashboard: no user yet ===\ndashboard: sign in as ${config.dashboard.firstAdminEmail} once, through ${signInUrl(config.publicUrl, firstAdmin.signInToken)}\n(organisation ${firstAdmin.organizationId}; the link works for 7 days; ledgerport user invite makes another)\n\n`,
    );
  }
  const { services } = runtime;
  if (role !== 'api') {
    await startWorkers(runtime.boss, runtime.workerServices);
    const dispatcher = startWebhookDispatcher(runtime.webhookServices);
    closers.push(() => dispatcher.stop());
  }
  // A worker-only process has no API server: its metrics are scraped on a port of their own.
  if (role === 'worker' && config.metricsPort !== null) {
    const { startMetricsListener } = await import('./api/metrics/listener.ts');
    const listener = await startMetricsListener(services, config.metricsPort, config.host);
    closers.push(() => listener.close());
    log(`metrics on port ${listener.port} (GET /metrics, admin token)`);
  }

  if (appModule !== null) {
    const app = await appModule.buildApp(services, { mounts: runtime.mounts });
    closers.push(() => app.close());
    await app.listen({ port: config.port, host: config.host });
  }
  log(`ledgerport ${role} started${role !== 'worker' ? ` on ${config.publicUrl}` : ''}`);
  // Every module is loaded by now; write the compile cache (src/main.ts) without waiting for the exit.
  flushCompileCache();
  // A second after listening, so the first requests (health checks) are not held by its pause.
  setTimeout(collectStartupGarbage, 1000).unref();
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\nWhat to do: correct these variables (README.md, "Configuration") and start again.\n`);
    process.exit(1);
  }
  process.stderr.write(formatStartFailure(explainStartFailure(error, startSettings)));
  process.exit(1);
});
