/**
 * `node bench/tenant-fairness.ts`: issue 19's fault figure, reads and webhooks at once against one real service
 * (an API process and a worker process on the benchmark's embedded PostgreSQL):
 *  1. alone: organisation B lists its customers with a few clients while emitting events at a steady rate to a
 *     receiver that answers 200;
 *  2. during: organisation A floods the API with 50 concurrent lists of the most expensive filter allowed AND has a
 *     receiver that never answers with 1,000 deliveries queued, while B runs the same list load and event rate.
 * Reported: B's list p50/p99 alone and during (target: p99 within 2×), B's delivery latency (target: all within
 * 5 s), A's answers by status, and every 5xx seen (target: none), including /healthz polled throughout.
 * Figures are printed and saved to bench/results/tenant-fairness.json, never asserted: the machine may be shared.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { emitEvents } from '../src/events/emit.ts';
import { openBenchContext, type BenchContext } from './lib/context.ts';
import { bystander, flood, HEAVY_FILTER, LIGHT_FILTER, organizationWithCustomers, type CustomerOrganization } from './lib/customers.ts';
import { numberFromEnv } from './lib/env.ts';
import { ROOT, spawnNode, waitForOk } from './lib/processes.ts';
import {
  addWebhookEndpoint,
  arrivalDelays,
  emitSteadily,
  numberedEvent,
  Receiver,
  removeWebhookEndpoints,
  summariseArrivals,
  waitUntil,
} from './lib/receiver.ts';
import { ratio } from './lib/stats.ts';

const settings = {
  records: numberFromEnv('BENCH_FAIRNESS_RECORDS', 3_000),
  secondsPerPhase: numberFromEnv('BENCH_FAIRNESS_SECONDS', 30),
  eventsPerSecond: numberFromEnv('BENCH_FAIRNESS_EVENTS_PER_SECOND', 2),
  deadQueued: numberFromEnv('BENCH_DEAD_QUEUED', 1_000),
  floodClients: 50,
  bystanderClients: 4,
};
const API_PORT = Number(process.env.BENCH_FAIRNESS_API_PORT ?? 18414);
const API_URL = `http://127.0.0.1:${API_PORT}`;
const began = performance.now();
const log = (message: string): void => {
  process.stdout.write(`[${Math.round((performance.now() - began) / 1000)}s] ${message}\n`);
};

const bLive = new Receiver(false);
const aDead = new Receiver(true);

const count5xx = (statuses: Record<string, number>): number =>
  Object.entries(statuses)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, n]) => sum + n, 0);

/** Polls /healthz every 250 ms until stopped; counts the answers by status (0: no answer). */
function probeHealth(): { stop(): Promise<Record<string, number>> } {
  const statuses: Record<string, number> = {};
  const state = { running: true };
  const loop = (async () => {
    while (state.running) {
      const status = await fetch(`${API_URL}/healthz`, { signal: AbortSignal.timeout(10_000) }).then(
        (r) => r.status,
        () => 0,
      );
      statuses[status] = (statuses[status] ?? 0) + 1;
      await sleep(250);
    }
  })();
  return {
    async stop() {
      state.running = false;
      await loop;
      return statuses;
    },
  };
}

/** B's list load and steady events for one phase, with /healthz polled alongside; `alongside` runs at the same time. */
async function phase<T>(bench: BenchContext, b: CustomerOrganization, name: string, alongside: () => Promise<T>) {
  const { pool, cipher } = bench.runtime.services;
  const events = Math.round(settings.secondsPerPhase * settings.eventsPerSecond);
  log(`${name}: B lists with ${settings.bystanderClients} clients and emits ${events} events over ${settings.secondsPerPhase} s`);
  const health = probeHealth();
  const [lists, other] = await Promise.all([
    bystander(API_URL, b, settings.bystanderClients, settings.secondsPerPhase),
    alongside(),
    emitSteadily(pool, cipher, b.tenant, events, settings.secondsPerPhase, name),
  ]);
  const healthz = await health.stop();
  // Late arrivals still count (their latency says how late): wait up to a minute for the rest.
  await waitUntil(async () => (await arrivalDelays(pool, b.tenant.organizationId, bLive, name)).length >= events, 60_000);
  const arrivals = summariseArrivals(await arrivalDelays(pool, b.tenant.organizationId, bLive, name));
  return { lists, deliveries: { events, ...arrivals }, healthz, other };
}

async function run(bench: BenchContext) {
  const { pool, cipher } = bench.runtime.services;
  log(`seeding two organisations with ${settings.records} customers each`);
  const b = await organizationWithCustomers(bench.runtime, 'bystander', settings.records);
  const a = await organizationWithCustomers(bench.runtime, 'flooder', settings.records);
  await addWebhookEndpoint(pool, b.tenant, await bLive.listen());
  await addWebhookEndpoint(pool, a.tenant, await aDead.listen());
  const api = spawnNode('src/main.ts', ['--role=api'], bench.childEnv({ PORT: String(API_PORT), HOST: '127.0.0.1' }));
  const worker = spawnNode('src/main.ts', ['--role=worker'], bench.childEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' }));
  try {
    await waitForOk(`${API_URL}/healthz`, api, performance.now());
    log('warm-up: schemas compiled, caches filled, the worker delivering');
    await Promise.all([bystander(API_URL, b, settings.bystanderClients, 5), emitSteadily(pool, cipher, b.tenant, 5, 5, 'warm-up')]);
    await waitUntil(async () => (await arrivalDelays(pool, b.tenant.organizationId, bLive, 'warm-up')).length >= 5, 60_000);

    const alone = await phase(bench, b, 'alone', () => Promise.resolve(null));

    log(`A: ${settings.deadQueued} deliveries queued for a receiver that never answers`);
    await emitEvents(
      pool,
      cipher,
      a.tenant,
      Array.from({ length: settings.deadQueued }, (_, n) => numberedEvent(n, 'dead')),
    );
    await waitUntil(() => aDead.open > 0, 30_000);
    const during = await phase(bench, b, 'during', () => flood(API_URL, a, settings.floodClients, settings.secondsPerPhase));

    const deadStates = await pool.query<{ attempted: number; open: number }>(
      `SELECT count(*) FILTER (WHERE attempts > 0)::int AS attempted, count(*) FILTER (WHERE status <> 'delivered')::int AS open
         FROM webhook_deliveries WHERE organization_id = $1`,
      [a.tenant.organizationId],
    );
    const aFlood = during.other;
    const serverErrors =
      alone.lists.serverErrors + during.lists.serverErrors + aFlood.serverErrors + count5xx(alone.healthz) + count5xx(during.healthz);
    return {
      date: new Date().toISOString(),
      machine: { cores: os.availableParallelism(), loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100) },
      settings: { ...settings, heavyFilter: HEAVY_FILTER, lightFilter: LIGHT_FILTER },
      bLists: {
        alone: alone.lists,
        during: during.lists,
        p50VsAlone: ratio(during.lists.p50Ms, alone.lists.p50Ms),
        p99VsAlone: ratio(during.lists.p99Ms, alone.lists.p99Ms),
      },
      bDeliveries: { alone: alone.deliveries, during: during.deliveries },
      aFlood,
      aDeadReceiver: {
        queued: settings.deadQueued,
        maxOpenAtOnce: aDead.maxOpen,
        attempted: deadStates.rows[0]?.attempted ?? 0,
        undelivered: deadStates.rows[0]?.open ?? 0,
      },
      healthz: { alone: alone.healthz, during: during.healthz },
      serverErrors,
    };
  } finally {
    await Promise.all([api.stop(), worker.stop()]);
    await removeWebhookEndpoints(pool, [a.tenant, b.tenant]);
  }
}

const bench = await openBenchContext(log);
try {
  const report = await run(bench);
  const file = path.join(ROOT, 'bench', 'results', 'tenant-fairness.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  const { bLists, bDeliveries, aFlood } = report;
  const d = bDeliveries.during;
  process.stdout.write(
    [
      '',
      `B's list alone: p50 ${bLists.alone.p50Ms} ms, p99 ${bLists.alone.p99Ms} ms; during A's flood and dead receiver: p50 ${bLists.during.p50Ms} ms, p99 ${bLists.during.p99Ms} ms (p99 ${bLists.p99VsAlone}× alone, target ≤ 2×)`,
      `B's deliveries alone: p50 ${bDeliveries.alone.p50Ms} ms, p99 ${bDeliveries.alone.p99Ms} ms, max ${bDeliveries.alone.maxMs} ms`,
      `B's deliveries during: ${d.arrived} of ${d.events} arrived, p50 ${d.p50Ms} ms, p99 ${d.p99Ms} ms, max ${d.maxMs} ms; ${d.within5s} within 5 s (target: all)`,
      `A's lists: ${aFlood.ok} × 200, ${aFlood.tooMany} × 429, ${aFlood.otherClientErrors} other 4xx, ${aFlood.serverErrors} × 5xx, ${aFlood.otherFailures} errors/timeouts; p50 ${aFlood.p50Ms} ms, p99 ${aFlood.p99Ms} ms`,
      `A's dead receiver: ${report.aDeadReceiver.maxOpenAtOnce} requests open at most, ${report.aDeadReceiver.attempted} of ${report.aDeadReceiver.queued} attempted`,
      `5xx anywhere (B's lists, A's lists, /healthz): ${report.serverErrors} (target 0); load average ${report.machine.loadAverage.join(', ')} on ${report.machine.cores} cores`,
      `Saved ${path.relative(ROOT, file)}.`,
      '',
    ].join('\n'),
  );
} finally {
  await Promise.all([bLive.close(), aDead.close()]);
  await bench.close();
}
