/**
 * `node bench/webhook-fairness.ts`: the webhook part of the benchmark on its
 * own, plus the fault figure of issue 19. A real worker process delivers:
 *  1. one organisation's burst (BENCH_WEBHOOKS events, 10,000 by default) to a
 *     receiver that verifies every signature: deliveries per second (target ≥ 1,000/s);
 *  2. organisation A's receiver never answers (each attempt runs into
 *     WEBHOOK_TIMEOUT_MS) with BENCH_DEAD_QUEUED (1,000) deliveries queued, while
 *     organisation B emits BENCH_LIVE_EVENTS (100) events over 10 s: the time from
 *     each of B's events to its arrival (target: all within 5 s), and how many
 *     requests A's receiver held open at once (its share, WEBHOOK_ENDPOINT_CONCURRENCY).
 * Figures are printed and saved to bench/results/<date>-webhook-fairness.json, never asserted.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { emitEvents } from '../src/events/emit.ts';
import { createOrganization } from '../src/tenants/organizations.ts';
import type { Tenant } from '../src/tenants/types.ts';
import { openBenchContext, type BenchContext } from './lib/context.ts';
import { numberFromEnv } from './lib/env.ts';
import { ROOT, spawnNode } from './lib/processes.ts';
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
import { webhookBench } from './webhooks.ts';

const settings = {
  burst: numberFromEnv('BENCH_WEBHOOKS', 10_000),
  deadQueued: numberFromEnv('BENCH_DEAD_QUEUED', 1_000),
  liveEvents: numberFromEnv('BENCH_LIVE_EVENTS', 100),
  liveSeconds: 10,
};
const began = performance.now();
const log = (message: string): void => {
  process.stdout.write(`[${Math.round((performance.now() - began) / 1000)}s] ${message}\n`);
};

interface FairnessResult {
  deadQueued: number;
  deadMaxOpen: number;
  deadAttemptedDuringRun: number;
  liveEvents: number;
  liveArrived: number;
  liveP50Ms: number;
  liveP99Ms: number;
  liveMaxMs: number;
  liveWithin5s: number;
}

async function fairness(bench: BenchContext): Promise<FairnessResult> {
  const { pool, cipher } = bench.runtime.services;
  const dead = new Receiver(true);
  const live = new Receiver(false);
  const orgs: Tenant[] = [];
  for (const [name, receiver] of [
    ['Bench: dead receiver', dead],
    ['Bench: live receiver', live],
  ] as const) {
    const org = await createOrganization(pool, cipher, name);
    const tenant: Tenant = { organizationId: org.organization.id, environment: 'sandbox' };
    await addWebhookEndpoint(pool, tenant, await receiver.listen());
    orgs.push(tenant);
  }
  const [a, b] = orgs;
  if (a === undefined || b === undefined) throw new Error('two organisations expected');
  try {
    log(`fairness: ${settings.deadQueued} deliveries queued for a receiver that never answers`);
    await emitEvents(
      pool,
      cipher,
      a,
      Array.from({ length: settings.deadQueued }, (_, n) => numberedEvent(n)),
    );
    await waitUntil(() => dead.open > 0, 30_000);

    log(`fairness: another organisation emits ${settings.liveEvents} events over ${settings.liveSeconds} s`);
    await emitSteadily(pool, cipher, b, settings.liveEvents, settings.liveSeconds);
    await waitUntil(() => live.firstSeen.size >= settings.liveEvents, 60_000);

    const arrivals = summariseArrivals(await arrivalDelays(pool, b.organizationId, live));
    const attempted = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries WHERE organization_id = $1 AND attempts > 0',
      [a.organizationId],
    );
    return {
      deadQueued: settings.deadQueued,
      deadMaxOpen: dead.maxOpen,
      deadAttemptedDuringRun: attempted.rows[0]?.n ?? 0,
      liveEvents: settings.liveEvents,
      liveArrived: arrivals.arrived,
      liveP50Ms: arrivals.p50Ms,
      liveP99Ms: arrivals.p99Ms,
      liveMaxMs: arrivals.maxMs,
      liveWithin5s: arrivals.within5s,
    };
  } finally {
    await removeWebhookEndpoints(pool, [a, b]);
    await dead.close();
    await live.close();
  }
}

const bench = await openBenchContext(log);
try {
  const worker = spawnNode('src/main.ts', ['--role=worker'], bench.childEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' }));
  let burst;
  let fault;
  try {
    burst = await webhookBench(bench, { burst: settings.burst, steadyRate: 200, steadySeconds: 10 }, log);
    fault = await fairness(bench);
  } finally {
    await worker.stop();
  }
  const report = { date: new Date().toISOString(), settings, burst, fairness: fault };
  const file = path.join(ROOT, 'bench', 'results', `${report.date.slice(0, 10)}-webhook-fairness.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    [
      '',
      `One organisation's burst of ${burst.burst.events}: ${burst.burst.deliveriesPerSecond} deliveries/s (target ≥ 1,000/s), ${burst.burst.duplicates} duplicates`,
      `Steady ${burst.steady.eventsPerSecond}/s: first attempt p50 ${burst.steady.firstAttemptP50Ms} ms, p99 ${burst.steady.firstAttemptP99Ms} ms`,
      `Dead receiver with ${fault.deadQueued} queued: at most ${fault.deadMaxOpen} requests open at once, ${fault.deadAttemptedDuringRun} attempted during the run`,
      `Other organisation: ${fault.liveArrived} of ${fault.liveEvents} arrived, p50 ${fault.liveP50Ms} ms, p99 ${fault.liveP99Ms} ms, max ${fault.liveMaxMs} ms; ${fault.liveWithin5s} within 5 s (target: all)`,
      `Saved ${path.relative(ROOT, file)}.`,
      '',
    ].join('\n'),
  );
} finally {
  await bench.close();
}
