/**
 * `npm start` (API + worker), `npm run worker` (--role=worker) or --role=api.
 * SIGTERM/SIGINT: stop accepting, drain requests, stop workers, close the pool.
 */
import { parseArgs } from 'node:util';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Role } from './config.ts';
import { createBoss } from './jobs/boss.ts';
import { createQueues, startWorkers } from './jobs/queues.ts';
import { startRuntime } from './runtime.ts';

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
  const config = loadConfig();
  const runtime = await startRuntime({ log, config });
  const { services } = runtime;
  const boss = createBoss(runtime.databaseUrl, { schedule: role !== 'api' });
  boss.on('error', (error: Error) => { log(`job queue error: ${error.message}`); });
  await boss.start();
  await createQueues(boss);
  if (role !== 'api') await startWorkers(boss, services);

  const app = role === 'worker' ? null : await buildApp(services);
  if (app !== null) await app.listen({ port: config.port, host: config.host });
  log(`ledgerport ${role} ready${app !== null ? ` on ${config.publicUrl}` : ''}`);

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    const force = setTimeout(() => { log('shutdown took too long; exiting'); process.exit(1); }, 30_000);
    force.unref();
    if (app !== null) await app.close();
    await boss.stop({ graceful: true, timeout: 20_000 });
    await runtime.close();
    log('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => { void shutdown('SIGTERM'); });
  process.on('SIGINT', () => { void shutdown('SIGINT'); });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`ledgerport failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
