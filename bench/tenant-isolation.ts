/**
 * One organisation cannot starve another (issue 19, item 6, reads): organisation B lists its customers with a
 * few clients, first alone, then while organisation A floods the same API process with 50 concurrent lists
 * carrying the most expensive filter allowed (ten `~` comparisons matching nothing: every record is scanned ten
 * times). B's p99 is compared with its p99 alone; A's answers are counted by status. The flood runs twice: with
 * the per-organisation cap (the default) and without it (ORG_DATABASE_CONCURRENCY = DATABASE_POOL_API).
 *
 * Issue 32 adds two more floods against the same bystander, each compared with its p99 alone: an unauthenticated flood
 * of forged Xero webhook posts of 900 KB (signed with a key that is not the organisation's), and another organisation
 * reading first pages of 50 customers with `expand=platform_data` (about 18 KB of platform data each).
 *
 * Small on purpose (3,000 customers per organisation, about 90 s): `node bench/tenant-isolation.ts`. Only 127.0.0.1.
 * Writes bench/results/tenant-isolation.json. Figures, not assertions: the machine is shared.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/runtime.ts';
import { upsertOAuthApp } from '../src/sql/oauth-apps.ts';
import {
  bystander as bystanderLoad,
  flood as floodLoad,
  floodFromAnotherProcess,
  HEAVY_FILTER,
  type FloodOrder,
  organizationWithCustomers,
  type CustomerOrganization,
} from './lib/customers.ts';
import type { LoadResult } from './lib/load.ts';
import { ROOT, spawnNode, waitForOk } from './lib/processes.ts';
import { ratio } from './lib/stats.ts';

const RECORDS = 3000;
const SECONDS = Number(process.env.BENCH_ISOLATION_SECONDS ?? 10);
const FLOOD_CLIENTS = 50;
const BYSTANDER_CLIENTS = 4;
const WEBHOOK_CLIENTS = 20;
const WEBHOOK_BYTES = 900 * 1024;
const PLATFORM_DATA_CLIENTS = 16;
/** Lines of platform data per customer of the reading organisation: about 18 KB a record, 900 KB a page of 50. */
const PLATFORM_DATA_LINES = 200;
const API_PORT = 18412;
const API_URL = `http://127.0.0.1:${API_PORT}`;

/** BENCH_ISOLATION_PHASES picks phases (comma-separated: capped, forged, platformData, uncapped); all by default. */
const PHASES = new Set((process.env.BENCH_ISOLATION_PHASES ?? 'capped,forged,platformData,uncapped').split(',').map((phase) => phase.trim()));
const skipped = { skipped: true } as const;

const flood = (owner: CustomerOrganization): ReturnType<typeof floodLoad> => floodLoad(API_URL, owner, FLOOD_CLIENTS, SECONDS);
const bystander = (owner: CustomerOrganization): Promise<LoadResult> => bystanderLoad(API_URL, owner, BYSTANDER_CLIENTS, SECONDS);

/** CPU seconds (user + system) the process has used so far, from /proc (clock ticks of 1/100 s). */
async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

/** What the API process itself spent on a phase: CPU seconds, a figure the machine's other load moves far less than latency. */
let apiPid: number | undefined;
async function withCpu<T>(work: () => Promise<T>): Promise<{ value: T; apiCpuSeconds: number }> {
  const before = await cpuSeconds(apiPid);
  const value = await work();
  return { value, apiCpuSeconds: Math.round(((await cpuSeconds(apiPid)) - before) * 100) / 100 };
}

/**
 * The bystander alone, then while `order` floods from another process; the API process's CPU seconds in both.
 */
async function floodPhase(victim: CustomerOrganization, order: FloodOrder) {
  const alone = await withCpu(() => bystander(victim));
  const during = await withCpu(() => Promise.all([floodFromAnotherProcess(order), bystander(victim)]));
  return {
    flood: during.value[0],
    alone: alone.value,
    bystander: during.value[1],
    apiCpuSecondsAlone: alone.apiCpuSeconds,
    apiCpuSecondsDuring: during.apiCpuSeconds,
  };
}

async function withApi<T>(env: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const api = spawnNode('src/main.ts', ['--role=api'], { ...env, PORT: String(API_PORT), HOST: '127.0.0.1' });
  apiPid = api.child.pid;
  try {
    await waitForOk(`http://127.0.0.1:${API_PORT}/healthz`, api, performance.now());
    return await work();
  } finally {
    await api.stop();
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-isolation-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    EMBEDDED_POSTGRES_PORT: '54412',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN: 'bench-admin-token',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SANDBOX_TICK_INTERVAL_SECONDS: '0',
    // Far above what the flood sends: this measures the database bounds, not the request rate limit.
    RATE_LIMIT_PER_WINDOW: '1000000000',
  };
  const log = (message: string): void => {
    process.stdout.write(`${message}\n`);
  };
  const runtime = await startRuntime({ log, config: loadConfig({ ...process.env, ...env }) });
  try {
    const victim = await organizationWithCustomers(runtime, 'bystander', RECORDS);
    const attacker = await organizationWithCustomers(runtime, 'flooder', RECORDS);
    const pool = loadConfig({ ...process.env, ...env }).databasePools.api;

    // Only what the chosen phases read is made.
    const reader = await organizationWithCustomers(runtime, 'reader', PHASES.has('platformData') ? 1000 : 1, PLATFORM_DATA_LINES);
    const forged = await organizationWithCustomers(runtime, 'forged', 1);
    await upsertOAuthApp(runtime.services.pool, {
      organizationId: forged.org.organization.id,
      environment: 'sandbox',
      platform: 'XERO',
      clientId: 'bench-xero',
      clientSecretCiphertext: runtime.services.cipher.encrypt('bench-xero-secret'),
      redirectUri: 'http://127.0.0.1:9/link/oauth/callback',
      webhookKeyCiphertext: runtime.services.cipher.encrypt('the-organisations-real-webhook-key'),
    });

    const { alone, capped, forgedWebhooks, platformData, aloneAfter } = await withApi(env, async () => {
      await bystander(victim); // warm-up: schemas compiled, caches filled
      const quiet = await bystander(victim);
      const capped = PHASES.has('capped')
        ? await (async () => {
            const [flooded, during] = await Promise.all([flood(attacker), bystander(victim)]);
            return { flood: flooded, bystander: during };
          })()
        : null;
      // These two floods come from another process, as an attacker's would; each is compared with a run alone just
      // before, and the API process's CPU seconds are counted in both.
      const forgedWebhooks = PHASES.has('forged')
        ? await floodPhase(victim, {
            kind: 'forgedWebhooks',
            baseUrl: API_URL,
            organizationId: forged.org.organization.id,
            clients: WEBHOOK_CLIENTS,
            seconds: SECONDS,
            bytes: WEBHOOK_BYTES,
          })
        : null;
      const platformData = PHASES.has('platformData')
        ? await floodPhase(victim, { kind: 'platformData', baseUrl: API_URL, owner: reader, clients: PLATFORM_DATA_CLIENTS, seconds: SECONDS })
        : null;
      const quietAgain = await bystander(victim);
      return { alone: quiet, capped, forgedWebhooks, platformData, aloneAfter: quietAgain };
    });
    const uncapped = PHASES.has('uncapped')
      ? await withApi({ ...env, ORG_DATABASE_CONCURRENCY: String(pool) }, async () => {
          await bystander(victim);
          const [flooded, during] = await Promise.all([flood(attacker), bystander(victim)]);
          return { flood: flooded, bystander: during };
        })
      : null;

    const report = {
      records: RECORDS,
      seconds: SECONDS,
      floodClients: FLOOD_CLIENTS,
      bystanderClients: BYSTANDER_CLIENTS,
      heavyFilter: HEAVY_FILTER,
      machineCores: os.availableParallelism(),
      alone,
      aloneAfter,
      forgedWebhooks:
        forgedWebhooks === null
          ? skipped
          : {
              clients: WEBHOOK_CLIENTS,
              bytes: WEBHOOK_BYTES,
              ...forgedWebhooks,
              p99VsAlone: ratio(forgedWebhooks.bystander.p99Ms, forgedWebhooks.alone.p99Ms),
              p50VsAlone: ratio(forgedWebhooks.bystander.p50Ms, forgedWebhooks.alone.p50Ms),
            },
      platformData:
        platformData === null
          ? skipped
          : {
              clients: PLATFORM_DATA_CLIENTS,
              lines: PLATFORM_DATA_LINES,
              ...platformData,
              p99VsAlone: ratio(platformData.bystander.p99Ms, platformData.alone.p99Ms),
              p50VsAlone: ratio(platformData.bystander.p50Ms, platformData.alone.p50Ms),
            },
      capped:
        capped === null
          ? skipped
          : { ...capped, p99VsAlone: ratio(capped.bystander.p99Ms, alone.p99Ms), p50VsAlone: ratio(capped.bystander.p50Ms, alone.p50Ms) },
      uncapped:
        uncapped === null
          ? skipped
          : { ...uncapped, p99VsAlone: ratio(uncapped.bystander.p99Ms, alone.p99Ms), p50VsAlone: ratio(uncapped.bystander.p50Ms, alone.p50Ms) },
    };
    await mkdir(path.join(ROOT, 'bench', 'results'), { recursive: true });
    await writeFile(path.join(ROOT, 'bench', 'results', 'tenant-isolation.json'), `${JSON.stringify(report, null, 2)}\n`);
    log(JSON.stringify(report, null, 2));
  } finally {
    await runtime.close();
    // As root the cluster may live outside DATA_DIR (src/db/embedded.ts).
    const pointer = path.join(dataDir, 'postgres-location');
    if (existsSync(pointer)) await rm(path.dirname((await readFile(pointer, 'utf8')).trim()), { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
