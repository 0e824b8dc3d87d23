/**
 * `node bench/shopify-100k.ts`: a 100,000-order Shopify store synced from the Shopify stand-in (test/standins/shopify,
 * which validates every query against Shopify's published 2026-10 schema and executes it against that schema) by the
 * registered SHOPIFY connector, through the real runner: sync workers on pg-boss, the benchmark's embedded PostgreSQL,
 * the connector's declared cost bucket (2,000 points, 100 a second: Shopify's Standard plan). Then the time from a
 * Shopify webhook (orders/updated, signed) POSTed to the service over HTTP to our ORDER_UPDATED at a local receiver.
 * Figures are printed and saved to bench/results/shopify-100k.json, never asserted.
 *
 * Reported:
 * - the initial sync: wall time, records stored per second (all types) and orders per second;
 * - GraphQL cost: the actual points the stand-in charged, against what Shopify's bucket allows in that time (the
 *   bucket's 2,000 plus 100 a second × elapsed), and the THROTTLED answers (none expected: the service keeps to the
 *   bucket); bulk operations: how many, whether any overlapped (Shopify refuses a second one while one runs), the
 *   JSONL bytes read and the range requests that read them;
 * - webhook → our webhook: p50, p99, max over BENCH_SHOPIFY_WEBHOOK_ROUNDS rounds (target: under 5 s).
 *
 * BENCH_SHOPIFY_ORDERS (100,000) sizes the store; BENCH_POSTGRES_PORT moves the embedded PostgreSQL off another run's.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../src/app.ts';
import { createConnection } from '../src/connections/connections.ts';
import { sealJson } from '../src/platforms/context.ts';
import { SHOPIFY_LIMITS } from '../src/platforms/shopify/index.ts';
import { upsertOAuthApp } from '../src/sql/oauth-apps.ts';
import { requestSync } from '../src/sync/requests.ts';
import { startSyncWorkers } from '../src/sync/worker.ts';
import { createOrganization } from '../src/tenants/organizations.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../src/webhooks/dispatcher.ts';
import { startShopifyStandIn } from '../test/standins/shopify/standin.ts';
import { openBenchContext } from './lib/context.ts';
import { numberFromEnv } from './lib/env.ts';
import { ROOT } from './lib/processes.ts';
import { percentile, round } from './lib/stats.ts';
import { benchLogger, WebhookArrivals, webhookKey } from './lib/arrivals.ts';

const ORDERS = numberFromEnv('BENCH_SHOPIFY_ORDERS', 100_000);
const ROUNDS = numberFromEnv('BENCH_SHOPIFY_WEBHOOK_ROUNDS', 10);
const GAP_MS = numberFromEnv('BENCH_SHOPIFY_WEBHOOK_GAP_MS', 2_000);
const SHOP = 'bench-100k.myshopify.com';

const began = performance.now();
const log = benchLogger();

const bench = await openBenchContext(log);
const standin = await startShopifyStandIn({ pollsBeforeReady: 1 });
process.env.SHOPIFY_API_URL = standin.url;
const { services, workerServices, webhookServices, boss } = bench.runtime;
const receiver = new WebhookArrivals(webhookKey('ORDER_UPDATED', 'order', 'platform_id'));
const app = await buildApp(services);
let dispatcher: WebhookDispatcher | null = null;
try {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  log(`building a shop of ${ORDERS} orders in the stand-in`);
  const shop = standin.addShop(SHOP, { orders: ORDERS, seed: 100 });
  const org = await createOrganization(services.pool, services.cipher, 'Bench: Shopify 100k');
  const organizationId = org.organization.id;
  await upsertOAuthApp(services.pool, {
    organizationId,
    environment: 'sandbox',
    platform: 'SHOPIFY',
    clientId: standin.app.clientId,
    clientSecretCiphertext: services.cipher.encrypt(standin.app.clientSecret),
    redirectUri: 'http://127.0.0.1:9/link/oauth/callback',
    webhookKeyCiphertext: services.cipher.encrypt(standin.app.clientSecret),
  });
  const { connection } = await createConnection(
    services.pool,
    services.cipher,
    { organizationId, environment: 'sandbox' },
    {
      platform: 'SHOPIFY',
      name: null,
      credentials: { store_url: SHOP },
      identity: { storeUniqueId: `gid://shopify/Shop/${shop.numericId}`, storeName: shop.name, storeDomain: SHOP },
      syncConfig: { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  await services.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [
    connection.id,
    sealJson(services.cipher, { accessToken: standin.issueToken(SHOP), refreshToken: null, expiresAt: null, tenantId: null }),
  ]);
  await startSyncWorkers(boss, workerServices, { concurrency: 2 });

  log('initial sync through bulk operations (sync workers, the declared cost bucket)');
  const syncStarted = performance.now();
  const run = await requestSync(services.pool, services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
  for (;;) {
    const state = await services.pool.query<{ status: string }>('SELECT status FROM sync_runs WHERE id = $1', [run.id]);
    const status = state.rows[0]?.status;
    if (status === 'completed') break;
    if (status === 'failed' || status === 'cancelled') throw new Error(`the initial sync ended ${status}`);
    if (performance.now() - syncStarted > 3_600_000) throw new Error('the initial sync took over an hour');
    await sleep(250);
  }
  const syncSeconds = (performance.now() - syncStarted) / 1000;
  const counts = await services.pool.query<{ object_type: string; n: string }>(
    'SELECT object_type, count(*) AS n FROM records WHERE connection_id = $1 AND deleted_at IS NULL GROUP BY object_type ORDER BY object_type',
    [connection.id],
  );
  const byType = Object.fromEntries(counts.rows.map((row) => [row.object_type, Number(row.n)]));
  const records = Object.values(byType).reduce((sum, n) => sum + n, 0);
  const allowedPoints = SHOPIFY_LIMITS.bucketSize + SHOPIFY_LIMITS.restoreRate * syncSeconds;
  const initial = {
    seconds: round(syncSeconds, 1),
    records,
    byType,
    recordsPerSecond: round(records / syncSeconds, 0),
    ordersPerSecond: round((byType.order ?? 0) / syncSeconds, 0),
    graphqlCalls: shop.calls,
    graphqlPointsCharged: round(shop.costCharged, 0),
    graphqlPointsAllowed: round(allowedPoints, 0),
    pointsShareOfAllowed: round(shop.costCharged / allowedPoints, 3),
    throttled: shop.throttled,
    bulkOperations: shop.bulkStarted,
    bulkPolls: shop.polls,
    bulkResultRangeRequests: shop.resultRequests,
    invalidQueries: standin.invalidQueries.length,
  };
  log(`initial sync: ${JSON.stringify(initial)}`);

  await services.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    organizationId,
    'sandbox',
    await receiver.listen(),
  ]);
  dispatcher = startWebhookDispatcher(webhookServices);
  const latencies: number[] = [];
  const acknowledged: number[] = [];
  const callsBefore = shop.calls;
  for (let n = 0; n < ROUNDS; n++) {
    const order = standin.touchOrder(SHOP, (n * 7919) % ORDERS);
    receiver.seen.delete(order.id);
    const hook = standin.webhook(SHOP, 'orders/updated', {
      id: Number(order.legacyResourceId),
      admin_graphql_api_id: order.id,
      updated_at: order.updatedAt,
    });
    const sent = performance.now();
    const answer = await fetch(`${apiUrl}/platform-webhooks/SHOPIFY/${organizationId}/sandbox`, {
      method: 'POST',
      body: hook.raw,
      headers: hook.headers,
    });
    acknowledged.push(performance.now() - sent);
    if (answer.status !== 200) throw new Error(`the webhook was answered ${answer.status}: ${await answer.text()}`);
    const deadline = sent + 60_000;
    while (!receiver.seen.has(order.id)) {
      if (performance.now() > deadline) throw new Error(`round ${n}: no ORDER_UPDATED within 60 s`);
      await sleep(10);
    }
    latencies.push((receiver.seen.get(order.id) ?? sent) - sent);
    log(`webhook round ${n + 1}/${ROUNDS}: ${Math.round(latencies.at(-1) ?? 0)} ms`);
    await sleep(GAP_MS);
  }
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    orders: ORDERS,
    costBucket: {
      size: SHOPIFY_LIMITS.bucketSize,
      restorePerSecond: SHOPIFY_LIMITS.restoreRate,
      source: 'shopify.dev/docs/api/usage/limits (Standard plan)',
    },
    initialSync: initial,
    webhooks: {
      rounds: ROUNDS,
      gapMs: GAP_MS,
      acknowledgeMs: { p50: round(percentile(acknowledged, 50), 1), p99: round(percentile(acknowledged, 99), 1) },
      shopifyWebhookToOursMs: {
        p50: round(percentile(latencies, 50), 0),
        p99: round(percentile(latencies, 99), 0),
        max: round(Math.max(...latencies), 0),
      },
      graphqlCallsPerRound: round((shop.calls - callsBefore) / ROUNDS, 1),
    },
    invalidQueries: standin.invalidQueries.length,
    wallSeconds: round((performance.now() - began) / 1000, 0),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  await mkdir(path.join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(path.join(ROOT, 'bench', 'results', 'shopify-100k.json'), `${JSON.stringify(result, null, 2)}\n`);
} catch (error) {
  process.stderr.write(`shopify 100k bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await dispatcher?.stop();
  await app.close();
  await receiver.close();
  await standin.close();
  delete process.env.SHOPIFY_API_URL;
  await bench.close();
}
