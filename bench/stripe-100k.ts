/**
 * `node bench/stripe-100k.ts`: the initial sync of a 100,000-charge Stripe account, and the time from Stripe's webhook
 * to ours. Against the Stripe stand-in (test/standins/stripe, built from Stripe's published OpenAPI; every request and
 * answer validated) and the registered STRIPE connector with its declared limits (25 requests a second: Stripe's
 * test-mode limit), through the real sync runner on the benchmark's embedded PostgreSQL. Figures are printed and saved
 * to bench/results/stripe-100k.json, never asserted.
 *
 * - The account: BENCH_STRIPE_CHARGES charges (default 100,000) a minute apart, every 3rd partly refunded, every 10th
 *   disputed, BENCH_STRIPE_PAYOUTS payouts (default 100) over them, 200 customers; no seeded events (a full read does
 *   not need them). Connected through Connect (an access token the stand-in issues), so its webhooks name it.
 * - Initial sync: one run, every object; records a second (stored rows of every type / wall time) and Stripe API calls
 *   against Stripe's own bound, 100 read requests a second per account in live mode: calls / (seconds × 100).
 * - Reconciliation: every stored payout's transactions (amount less fee) against its amount.
 * - Webhooks: BENCH_STRIPE_WEBHOOK_ROUNDS (10) charges made in the stand-in, each one's signed charge.succeeded POSTed
 *   to the service over HTTP, the clock stopped when our ORDER_CREATED for it reaches a local receiver (sync workers
 *   and the webhook dispatcher running in this process). Target under 5 s.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../src/app.ts';
import { createConnection } from '../src/connections/connections.ts';
import { sealJson } from '../src/platforms/context.ts';
import { STRIPE_LIMITS } from '../src/platforms/stripe/index.ts';
import { upsertOAuthApp } from '../src/sql/oauth-apps.ts';
import { requestSync } from '../src/sync/requests.ts';
import { runSync } from '../src/sync/runner.ts';
import { startSyncWorkers } from '../src/sync/worker.ts';
import { createOrganization } from '../src/tenants/organizations.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../src/webhooks/dispatcher.ts';
import { startStripeStandIn } from '../test/standins/stripe/server.ts';
import { setEnv } from '../test/support/env.ts';
import { openBenchContext } from './lib/context.ts';
import { numberFromEnv } from './lib/env.ts';
import { ROOT } from './lib/processes.ts';
import { percentile, round } from './lib/stats.ts';
import { benchLogger, WebhookArrivals, webhookKey } from './lib/arrivals.ts';

const CHARGES = numberFromEnv('BENCH_STRIPE_CHARGES', 100_000);
const PAYOUTS = numberFromEnv('BENCH_STRIPE_PAYOUTS', 100);
const ROUNDS = numberFromEnv('BENCH_STRIPE_WEBHOOK_ROUNDS', 10);
const GAP_MS = numberFromEnv('BENCH_STRIPE_WEBHOOK_GAP_MS', 2_000);
const STRIPE_LIVE_READS_PER_SECOND = 100;
const ACCOUNT = 'acct_1BenchHundredK';
const WEBHOOK_SECRET = 'whsec_bench_stripe_0123456789';

const log = benchLogger();

const bench = await openBenchContext(log);
const standin = await startStripeStandIn();
const restore = setEnv({ STRIPE_API_URL: standin.url });
const { services, workerServices, webhookServices, boss } = bench.runtime;
const receiver = new WebhookArrivals(webhookKey('ORDER_CREATED', 'order', 'platform_id'));
const app = await buildApp(services);
let dispatcher: WebhookDispatcher | null = null;
try {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  log(`seeding a ${CHARGES}-charge account in the stand-in`);
  const seedStarted = performance.now();
  const ticks = Math.ceil(CHARGES * 1.5) + PAYOUTS + 1_000;
  const account = standin.addAccount({
    id: ACCOUNT,
    name: 'Bench Hundred K Inc',
    charges: CHARGES,
    customers: 200,
    payouts: PAYOUTS,
    start: Math.floor(Date.now() / 1000) - ticks * 60,
    seedEvents: false,
  });
  const counts = {
    charges: account.charges.length,
    balanceTransactions: account.balanceTransactions.length,
    payouts: account.payouts.length,
    disputes: account.disputes.length,
    customers: account.customers.length,
  };
  log(`seeded in ${round((performance.now() - seedStarted) / 1000, 1)} s: ${JSON.stringify(counts)}`);

  const org = await createOrganization(services.pool, services.cipher, 'Bench: Stripe 100k');
  const organizationId = org.organization.id;
  await upsertOAuthApp(services.pool, {
    organizationId,
    environment: 'sandbox',
    platform: 'STRIPE',
    clientId: standin.platform.clientId,
    clientSecretCiphertext: services.cipher.encrypt(standin.platform.secretKey),
    redirectUri: 'http://127.0.0.1:9/link/oauth/callback',
    webhookKeyCiphertext: services.cipher.encrypt(WEBHOOK_SECRET),
  });
  const { connection } = await createConnection(
    services.pool,
    services.cipher,
    { organizationId, environment: 'sandbox' },
    {
      platform: 'STRIPE',
      name: null,
      credentials: null,
      identity: { storeUniqueId: ACCOUNT, storeName: account.name },
      syncConfig: { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  const tokens = { accessToken: standin.issueConnectToken(ACCOUNT), refreshToken: null, expiresAt: null, tenantId: ACCOUNT };
  await services.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [connection.id, sealJson(services.cipher, tokens)]);

  log(`initial sync through the runner (STRIPE limits: ${STRIPE_LIMITS.requestsPerMinute} a minute, burst ${STRIPE_LIMITS.burst})`);
  const callsBefore = standin.calls.total;
  const initial = await requestSync(services.pool, services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
  const syncStarted = performance.now();
  let outcome = await runSync(workerServices, initial.id, new AbortController().signal);
  for (let attempt = 0; outcome !== 'completed' && attempt < 10; attempt++) {
    log(`run outcome ${outcome}; running it again`);
    outcome = await runSync(workerServices, initial.id, new AbortController().signal);
  }
  const seconds = (performance.now() - syncStarted) / 1000;
  if (outcome !== 'completed') throw new Error(`the initial sync ended ${outcome}`);
  const calls = standin.calls.total - callsBefore;
  const byType = await services.pool.query<{ object_type: string; n: string }>(
    'SELECT object_type, count(*) AS n FROM records WHERE connection_id = $1 AND deleted_at IS NULL GROUP BY object_type ORDER BY object_type',
    [connection.id],
  );
  const stored = Object.fromEntries(byType.rows.map((row) => [row.object_type, Number(row.n)]));
  const records = Object.values(stored).reduce((sum, n) => sum + n, 0);
  log(`initial sync: ${round(seconds, 1)} s, ${records} records, ${calls} Stripe calls`);

  const payouts = await services.pool.query<{ platform_id: string; data: { amount: number; transactions: { amount: number; fee: number }[] } }>(
    `SELECT platform_id, data FROM records WHERE connection_id = $1 AND object_type = 'payout' AND deleted_at IS NULL`,
    [connection.id],
  );
  const unreconciled = payouts.rows.filter((p) => {
    const sum = p.data.transactions.reduce((total, tx) => total + tx.amount - tx.fee, 0);
    return Math.round(sum * 100) !== Math.round(p.data.amount * 100);
  });

  await services.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    organizationId,
    'sandbox',
    await receiver.listen(),
  ]);
  await startSyncWorkers(boss, workerServices, { concurrency: 2 });
  dispatcher = startWebhookDispatcher(webhookServices);
  const latencies: number[] = [];
  const acknowledged: number[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    const charge = account.addCharge(5_000 + n, null, `Bench webhook round ${n}`);
    const signed = standin.signedWebhook(account.lastEvent(), WEBHOOK_SECRET);
    const sent = performance.now();
    const answer = await fetch(`${apiUrl}/platform-webhooks/STRIPE/${organizationId}/sandbox`, {
      method: 'POST',
      body: signed.body,
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
    });
    acknowledged.push(performance.now() - sent);
    if (answer.status !== 200) throw new Error(`the webhook was answered ${answer.status}: ${await answer.text()}`);
    const deadline = sent + 60_000;
    while (!receiver.seen.has(charge.id)) {
      if (performance.now() > deadline) throw new Error(`round ${n}: no ORDER_CREATED within 60 s`);
      await sleep(10);
    }
    latencies.push((receiver.seen.get(charge.id) ?? sent) - sent);
    log(`webhook round ${n + 1}/${ROUNDS}: ${Math.round(latencies.at(-1) ?? 0)} ms`);
    await sleep(GAP_MS);
  }

  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    account: counts,
    initialSync: {
      seconds: round(seconds, 1),
      records,
      storedByType: stored,
      recordsPerSecond: round(records / seconds, 0),
      chargesPerSecond: round((stored.order ?? 0) / seconds, 0),
      stripeCalls: calls,
      callsPerSecond: round(calls / seconds, 1),
      // Stripe's own bound: 100 read requests a second per account in live mode.
      shareOfStripeLiveLimit: round(calls / (seconds * STRIPE_LIVE_READS_PER_SECOND), 3),
      shareOfOurDeclaredLimit: round(calls / (seconds * (STRIPE_LIMITS.requestsPerMinute / 60)), 3),
      throttled: standin.calls.throttled,
    },
    payouts: { stored: payouts.rows.length, unreconciled: unreconciled.map((p) => p.platform_id) },
    contractViolations: standin.violations.length,
    webhooks: {
      rounds: ROUNDS,
      gapMs: GAP_MS,
      acknowledgeMs: { p50: round(percentile(acknowledged, 50), 1), p99: round(percentile(acknowledged, 99), 1) },
      stripeWebhookToOursMs: {
        p50: round(percentile(latencies, 50), 0),
        p99: round(percentile(latencies, 99), 0),
        max: round(Math.max(...latencies), 0),
      },
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (standin.violations.length > 0) process.stdout.write(`first violation: ${JSON.stringify(standin.violations[0])}\n`);
  await mkdir(path.join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(path.join(ROOT, 'bench', 'results', 'stripe-100k.json'), `${JSON.stringify(result, null, 2)}\n`);
} catch (error) {
  process.stderr.write(`stripe bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await dispatcher?.stop();
  await app.close();
  await receiver.close();
  await standin.close();
  await bench.close();
  restore();
}
