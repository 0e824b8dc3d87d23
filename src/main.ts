/**
 * `npm start` (API + worker), `npm run worker` (--role=worker) or --role=api.
 * SIGTERM/SIGINT: stop accepting, drain requests, stop workers, close the pool.
 */
import { parseArgs } from 'node:util';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Role } from './config.ts';
import { startWorkers } from './jobs/queues.ts';
import { startRuntime } from './runtime.ts';
import { startWebhookDispatcher } from './webhooks/dispatcher.ts';

const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
const role = values.role as Role;
if (!['all', 'api', 'worker'].includes(role)) {
  process.stderr.write(`--role must be all, api or worker (got ${values.role})\n`);
  process.exit(2);
}

function log(message: string): void {
  process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: message })}\n`);
}

async function main(): Promise<void> {
  // Signal handlers first: a SIGTERM during start-up still shuts down cleanly.
  const closers: (() => Promise<void>)[] = [];
  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    const force = setTimeout(() => { log('shutdown took too long; exiting'); process.exit(1); }, 30_000);
    force.unref();
    // Newest first: HTTP stops accepting and drains, then workers stop, then the pool and database.
    for (const close of closers.reverse()) {
      await close().catch((error: unknown) => { log(`error while stopping: ${String(error)}`); });
    }
    log('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => { void shutdown('SIGTERM'); });
  process.on('SIGINT', () => { void shutdown('SIGINT'); });

  const config = loadConfig();
  const runtime = await startRuntime({ log, config, schedule: role !== 'api' });
  closers.push(() => runtime.close());
  const { services } = runtime;
  if (role !== 'api') {
    await startWorkers(runtime.boss, services);
    const dispatcher = startWebhookDispatcher(services);
    closers.push(() => dispatcher.stop());
  }

  if (role !== 'worker') {
    const app = await buildApp(services);
    closers.push(() => app.close());
    await app.listen({ port: config.port, host: config.host });
  }
  log(`ledgerport ${role} started${role !== 'worker' ? ` on ${config.publicUrl}` : ''}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`ledgerport failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
