/**
 * `node bench/platform-webhooks.ts`: the time from a platform's webhook to ours. Against the Xero stand-in (built from
 * Xero's published OpenAPI) and the registered XERO connector with its declared limits (50 a minute after a burst of
 * 10, 5,000 a day): a bill is edited in the stand-in, Xero's signed notification of it is POSTed to the service over
 * HTTP, and the clock stops when our BILL_UPDATED webhook for that bill reaches a local receiver. In between:
 * signature check and receipt, a targeted incremental sync picked up by a sync worker (pg-boss, polled every second),
 * the platform calls of the bill's types, the event and its delivery. One process runs the API, a sync worker and the
 * webhook dispatcher on the benchmark's embedded PostgreSQL. Figures are printed and saved to
 * bench/results/platform-webhooks-gap-<ms>ms.json, never asserted (issue 21's target: under 5 s). BENCH_PLATFORM_WEBHOOK_GAP_MS
 * (12,000) spaces the rounds: 12 s lets Xero's burst refill; 1,000 measures notifications back to back.
 */
import { createHmac } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../src/app.ts';
import { createConnection } from '../src/connections/connections.ts';
import { sealJson } from '../src/platforms/context.ts';
import { upsertOAuthApp } from '../src/sql/oauth-apps.ts';
import { requestSync } from '../src/sync/requests.ts';
import { runSync } from '../src/sync/runner.ts';
import { startSyncWorkers } from '../src/sync/worker.ts';
import { createOrganization } from '../src/tenants/organizations.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../src/webhooks/dispatcher.ts';
import { startXeroStandIn, useStandIn } from '../test/standins/xero/server.ts';
import { openBenchContext } from './lib/context.ts';
import { numberFromEnv } from './lib/env.ts';
import { ROOT } from './lib/processes.ts';
import { percentile, round } from './lib/stats.ts';
import { benchLogger, WebhookArrivals, webhookKey } from './lib/arrivals.ts';

const ROUNDS = numberFromEnv('BENCH_PLATFORM_WEBHOOK_ROUNDS', 20);
const GAP_MS = numberFromEnv('BENCH_PLATFORM_WEBHOOK_GAP_MS', 12_000);
const WEBHOOK_KEY = 'bench-xero-webhook-key';
const APP = { clientId: 'bench-xero-app', clientSecret: 'bench-xero-secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' };

const log = benchLogger();

const bench = await openBenchContext(log);
const standin = await startXeroStandIn();
const restore = useStandIn(standin);
standin.registerClient(APP);
const { services, workerServices, webhookServices, boss } = bench.runtime;
const receiver = new WebhookArrivals(webhookKey('BILL_UPDATED', 'bill', 'id'));
const app = await buildApp(services);
let dispatcher: WebhookDispatcher | null = null;
try {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const org = await createOrganization(services.pool, services.cipher, 'Bench: platform webhooks');
  const organizationId = org.organization.id;
  await upsertOAuthApp(services.pool, {
    organizationId,
    environment: 'sandbox',
    platform: 'XERO',
    clientId: APP.clientId,
    clientSecretCiphertext: services.cipher.encrypt(APP.clientSecret),
    redirectUri: APP.redirectUri,
    webhookKeyCiphertext: services.cipher.encrypt(WEBHOOK_KEY),
  });
  const tenant = standin.tenants[0];
  if (tenant === undefined) throw new Error('the stand-in has no organisation');
  const { connection } = await createConnection(
    services.pool,
    services.cipher,
    { organizationId, environment: 'sandbox' },
    {
      platform: 'XERO',
      name: null,
      credentials: null,
      identity: { storeUniqueId: tenant.id, storeName: tenant.name },
      syncConfig: { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  await services.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [
    connection.id,
    sealJson(services.cipher, standin.issueTokens(APP.clientId)),
  ]);
  log("initial sync of the stand-in's organisation (Xero's declared limits)");
  const initial = await requestSync(services.pool, services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
  const syncStarted = performance.now();
  if ((await runSync(workerServices, initial.id, new AbortController().signal)) !== 'completed') throw new Error('the initial sync did not complete');
  log(`initial sync: ${round((performance.now() - syncStarted) / 1000, 1)} s`);
  await services.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    organizationId,
    'sandbox',
    await receiver.listen(),
  ]);
  await startSyncWorkers(boss, workerServices, { concurrency: 2 });
  dispatcher = startWebhookDispatcher(webhookServices);

  const stored = await services.pool.query<{ id: string; platform_id: string }>(
    `SELECT id, platform_id FROM records WHERE connection_id = $1 AND object_type = 'bill'`,
    [connection.id],
  );
  const serviceIdOf = new Map(stored.rows.map((row) => [row.platform_id, row.id]));
  // Bills the sync stored (Xero's deleted ones are not).
  const bills = standin
    .books()
    .all('Invoices')
    .filter((i) => i.Type === 'ACCPAY' && serviceIdOf.has(String(i.InvoiceID)));
  const latencies: number[] = [];
  const acknowledged: number[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    const bill = bills[n % bills.length];
    const billId = String(bill?.InvoiceID);
    const ourId = serviceIdOf.get(billId);
    if (ourId === undefined) throw new Error(`bill ${billId} was not synced`);
    receiver.seen.delete(ourId);
    standin.books().change('Invoices', billId, (record) => {
      record.Reference = `Bench round ${n}`;
    });
    const body = JSON.stringify({
      events: [
        {
          resourceUrl: `${standin.url}/api.xro/2.0/Invoices/${billId}`,
          resourceId: billId,
          eventDateUtc: new Date().toISOString().slice(0, 23),
          eventType: 'UPDATE',
          eventCategory: 'INVOICE',
          tenantId: tenant.id,
          tenantType: 'ORGANISATION',
        },
      ],
      firstEventSequence: n + 1,
      lastEventSequence: n + 1,
      entropy: `bench${n}`,
    });
    const sent = performance.now();
    const answer = await fetch(`${apiUrl}/platform-webhooks/XERO/${organizationId}/sandbox`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-xero-signature': createHmac('sha256', WEBHOOK_KEY).update(body).digest('base64') },
    });
    acknowledged.push(performance.now() - sent);
    if (answer.status !== 200) throw new Error(`the webhook was answered ${answer.status}: ${await answer.text()}`);
    const deadline = sent + 60_000;
    while (!receiver.seen.has(ourId)) {
      if (performance.now() > deadline) throw new Error(`round ${n}: no BILL_UPDATED within 60 s`);
      await sleep(10);
    }
    latencies.push((receiver.seen.get(ourId) ?? sent) - sent);
    log(`round ${n + 1}/${ROUNDS}: ${Math.round(latencies.at(-1) ?? 0)} ms`);
    // Rounds GAP_MS apart: 12 s lets Xero's burst of 10 calls refill (50 a minute), as for changes that come now and
    // then; 1 s measures notifications back to back, each run waiting for the one before and for the rate.
    await sleep(GAP_MS);
  }
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    rounds: ROUNDS,
    gapMs: GAP_MS,
    acknowledgeMs: { p50: round(percentile(acknowledged, 50), 1), p99: round(percentile(acknowledged, 99), 1) },
    platformWebhookToOursMs: {
      p50: round(percentile(latencies, 50), 0),
      p99: round(percentile(latencies, 99), 0),
      max: round(Math.max(...latencies), 0),
    },
    platformCalls: standin.requests.length,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  await mkdir(path.join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(path.join(ROOT, 'bench', 'results', `platform-webhooks-gap-${GAP_MS}ms.json`), `${JSON.stringify(result, null, 2)}\n`);
} catch (error) {
  process.stderr.write(`platform webhook bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await dispatcher?.stop();
  await app.close();
  await receiver.close();
  await standin.close();
  restore();
  await bench.close();
}
