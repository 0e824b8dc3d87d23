/**
 * `node bench/xero-busy-month.ts [--webhooks]`: does a busy Xero organisation stay inside Xero's 5,000 API calls a day? A simulated
 * month against the Xero stand-in (test/standins/xero, built from Xero's published OpenAPI), counting every request it
 * answers, per simulated day. Figures are printed and saved to bench/results/xero-busy-month.json, never asserted.
 *
 * Design:
 * - The business: the stand-in's first organisation grown to about 2,000 documents (bills ACCPAY and invoices ACCREC,
 *   added through the stand-in's own write rules, books.save; the seed's payments, credit notes and journals stay),
 *   300 of them with one or two files (books.attach). One connection of an organisation of ours links to it and runs
 *   its initial sync (counted apart from the days).
 * - The connector: the registered XERO connector's code under another id, XERO_BUDGET_BENCH, with no rate pacing and
 *   no daily budget (Xero's 60 calls a minute through our shared limiter would make a month take hours, and a daily
 *   budget counted on the wall clock would stop a simulated month after its first 5,000 calls). Every call is still
 *   made and counted at the stand-in, just not paced.
 * - A day, BENCH_DAYS times (default 30), on a simulated clock of minutes: at each hour, 5 documents edited in Xero
 *   itself (every tenth edit a document with files), then the hourly incremental sync (trigger schedule); 50 bills
 *   created through our API spread over the day (one every 28.8 minutes), each run by a write worker, then the
 *   follow-up sync the write path queued, run at once instead of after its 5 s delay (no sync worker runs, so each
 *   follow-up runs exactly once, as in production where writes are half an hour apart).
 * - Wall clock versus simulated clock: the attachment read lists every parent's files once a day, judged by the
 *   `fullAt` of its cursor (a2:<sinceMs>:<fullAtMs> in sync_objects.since_cursor). At each day boundary fullAt is aged
 *   by 25 hours, so each simulated day has exactly the one full listing the wall clock would give it. Xero's access
 *   tokens last 30 minutes: the stored token is marked expired whenever 30 simulated minutes have passed since the last
 *   refresh, so the token endpoint sees the refreshes a real day would (counted apart: Xero's 5,000 are API calls).
 *
 * - With `--webhooks` (or BENCH_WEBHOOKS=1), as docs/platforms.md recommends: the OAuth app has a webhook key and Xero
 *   notifies every change, ours included, through POST /platform-webhooks/XERO_BUDGET_BENCH/…: each edit in Xero, one
 *   signed notification as it happens, and each bill we write, one after its write (before the write's follow-up
 *   runs, so a follow-up that already covers the types is joined). The targeted sync each notification queues is run at
 *   once, like the follow-ups. The hourly syncs stay: they are the safety net for what webhooks do not name.
 *
 * Simplified: edits in Xero are reference changes of existing documents (no new payments or credit notes during the
 * month); bill writes are creates only; one notification per change (Xero may batch several); the stand-in answers at
 * once and never refuses (no 429 retries).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../src/app.ts';
import { createConnection } from '../src/connections/connections.ts';
import type { Connector } from '../src/platforms/connector.ts';
import { openTokens, sealJson } from '../src/platforms/context.ts';
import { getConnector, registerConnector } from '../src/platforms/registry.ts';
import { xeroConnector } from '../src/platforms/xero/index.ts';
import { upsertOAuthApp } from '../src/sql/oauth-apps.ts';
import { requestSync } from '../src/sync/requests.ts';
import { runSync, type RunOutcome } from '../src/sync/runner.ts';
import { createOrganization } from '../src/tenants/organizations.ts';
import { startWriteWorkers } from '../src/writes/worker.ts';
import type { XeroBooks } from '../test/standins/xero/books.ts';
import { generator, type Json } from '../test/standins/xero/seed.ts';
import { startXeroStandIn, useStandIn, type LoggedRequest } from '../test/standins/xero/server.ts';
import { xeroWebhook } from '../test/standins/xero/webhooks.ts';
import { openBenchContext } from './lib/context.ts';
import { numberFromEnv } from './lib/env.ts';
import { ROOT } from './lib/processes.ts';
import { round } from './lib/stats.ts';

const DAYS = numberFromEnv('BENCH_DAYS', 30);
const DOCUMENTS = 2_000;
const WITH_FILES = 300;
const WRITES_PER_DAY = 50;
const EDITS_PER_HOUR = 5;
const BUDGET = 5_000;
const TOKEN_MINUTES = 30;
const PLATFORM = 'XERO_BUDGET_BENCH';
const WEBHOOKS = process.argv.includes('--webhooks') || process.env.BENCH_WEBHOOKS === '1';
const WEBHOOK_KEY = 'bench-xero-webhook-key-0123456789';
const VERSION = '2024-08-31';
const APP = { clientId: 'bench-xero-budget-app', clientSecret: 'bench-xero-secret', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' };
const DAY_MS = 86_400_000;

const began = performance.now();
const log = (message: string): void => {
  process.stdout.write(`[${Math.round((performance.now() - began) / 1000)}s] ${message}\n`);
};

type Activity = 'hourly syncs' | 'bill writes' | 'write follow-up syncs' | 'webhook syncs';

interface DayCount {
  day: number;
  /** API calls (Xero's 5,000 a day count these). */
  total: number;
  /** Token endpoint calls (refreshes), apart. */
  tokenCalls: number;
  byKind: Record<string, number>;
  byActivity: Record<Activity, number>;
  syncs: number;
  writes: number;
  wallSeconds: number;
}

/** The family of a request: method and path with ids left out, the attachment reads named. */
function kindOf(request: LoggedRequest): string {
  const path = request.path.replace(/^\/api\.xro\/2\.0/, '');
  if (/^\/connections\/?$/i.test(path)) return 'GET /connections';
  if (path.endsWith('/Attachments')) return `GET /${path.split('/')[1] ?? ''}/{id}/Attachments (attachment list of one parent)`;
  if (request.query.where === 'HasAttachments==true') return `GET /${path.split('/')[1] ?? ''}?where=HasAttachments (attachment parents)`;
  const [, first = '', second] = path.split('/');
  if (first === 'Reports') return `${request.method} /Reports/${second ?? ''}`;
  return `${request.method} /${first}${second === undefined ? '' : '/{id}'}`;
}

function addTo(counts: Record<string, number>, key: string, n = 1): void {
  counts[key] = (counts[key] ?? 0) + n;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
};

/** Grows the organisation's books to DOCUMENTS documents, WITH_FILES of them with one or two files. */
function growBooks(books: XeroBooks): { added: number; withFiles: number } {
  const rng = generator(2_026_1126);
  const contacts = books.all('Contacts').filter((c) => c.ContactStatus === 'ACTIVE');
  const suppliers = contacts.filter((c) => c.IsSupplier === true);
  const customers = contacts.filter((c) => c.IsCustomer === true);
  const start = Date.now() - 540 * DAY_MS;
  let added = 0;
  while (books.all('Invoices').length < DOCUMENTS) {
    const batch: Json[] = [];
    for (let i = 0; i < 100 && books.all('Invoices').length + batch.length < DOCUMENTS; i++) {
      const n = added + batch.length;
      const bill = n % 5 !== 4;
      const contact = rng.pick(bill ? suppliers : customers);
      const date = new Date(start + rng.int(540) * DAY_MS).toISOString().slice(0, 10);
      batch.push({
        Type: bill ? 'ACCPAY' : 'ACCREC',
        Contact: { ContactID: contact.ContactID },
        Date: date,
        DueDate: new Date(Date.parse(date) + 30 * DAY_MS).toISOString().slice(0, 10),
        Status: n % 7 === 0 ? 'DRAFT' : 'AUTHORISED',
        ...(bill ? { InvoiceNumber: `BUSY-${10_000 + n}` } : {}),
        Reference: `Busy ${n + 1}`,
        LineAmountTypes: 'Exclusive',
        LineItems: Array.from({ length: 1 + rng.int(3) }, (_v, k) => ({
          Description: `${bill ? 'Purchase' : 'Service'} ${n + 1}.${k + 1}`,
          Quantity: 1 + rng.int(4),
          UnitAmount: 10 + rng.int(50_000) / 100,
          AccountCode: bill ? '429' : '200',
          TaxType: bill ? 'INPUT2' : 'OUTPUT2',
        })),
      });
    }
    const answer = books.save('Invoices', { Invoices: batch }, null, true);
    if (answer.status !== 200) throw new Error(`the stand-in refused the seed documents: ${JSON.stringify(answer.body)}`);
    added += batch.length;
  }
  const parents = () => Object.entries(books.attachments).filter(([id, files]) => files.length > 0 && books.get('Invoices', id) !== undefined);
  const candidates = books.all('Invoices').filter((i) => i.HasAttachments !== true && i.Status === 'AUTHORISED');
  for (const document of candidates) {
    if (parents().length >= WITH_FILES) break;
    const id = String(document.InvoiceID);
    books.attach('Invoices', id, `scan-${id.slice(0, 8)}.pdf`);
    if (rng.next() < 0.5) books.attach('Invoices', id, `remittance-${id.slice(0, 8)}.png`, 'image/png');
  }
  return { added, withFiles: parents().length };
}

const bench = await openBenchContext(log);
const standin = await startXeroStandIn();
const restore = useStandIn(standin);
standin.registerClient(APP);
const { services, workerServices, boss } = bench.runtime;
const bareXero: Connector = {
  ...xeroConnector,
  id: PLATFORM,
  name: 'Xero (bench: unpaced, no daily budget)',
  limits: { requestsPerMinute: null, concurrentRequests: 5, dailyRequests: null },
};
if (getConnector(PLATFORM) === undefined) registerConnector(bareXero);
const app = await buildApp(services);
try {
  const books = standin.books();
  const grown = growBooks(books);
  const documents = books.all('Invoices');
  log(
    `the organisation: ${documents.length} documents (${documents.filter((i) => i.Type === 'ACCPAY').length} bills, ` +
      `${documents.filter((i) => i.Type === 'ACCREC').length} invoices), ${grown.withFiles} with files, ` +
      `${books.all('Payments').length} payments, ${books.all('CreditNotes').length} credit notes`,
  );
  const org = await createOrganization(services.pool, services.cipher, 'Bench: Xero busy month');
  const organizationId = org.organization.id;
  await upsertOAuthApp(services.pool, {
    organizationId,
    environment: 'sandbox',
    platform: PLATFORM,
    clientId: APP.clientId,
    clientSecretCiphertext: services.cipher.encrypt(APP.clientSecret),
    redirectUri: APP.redirectUri,
    webhookKeyCiphertext: WEBHOOKS ? services.cipher.encrypt(WEBHOOK_KEY) : null,
  });
  const tenant = standin.tenants[0];
  if (tenant === undefined) throw new Error('the stand-in has no organisation');
  const { connection, accessToken } = await (async () => {
    const created = await createConnection(
      services.pool,
      services.cipher,
      { organizationId, environment: 'sandbox' },
      {
        platform: PLATFORM,
        name: null,
        credentials: null,
        identity: { storeUniqueId: tenant.id, storeName: tenant.name },
        syncConfig: { historical_months: 0 },
        scope: null,
        marketplace: null,
        redirectUrl: null,
      },
    );
    return { connection: created.connection, accessToken: services.cipher.decrypt(created.connection.accessTokenCiphertext) };
  })();
  await services.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [
    connection.id,
    sealJson(services.cipher, standin.issueTokens(APP.clientId)),
  ]);

  const sync = async (kind: 'initial' | 'incremental', runId?: string): Promise<void> => {
    const id = runId ?? (await requestSync(services.pool, services.jobs, connection.id, { kind, trigger: 'schedule', details: {} })).id;
    let outcome: RunOutcome = await runSync(workerServices, id, new AbortController().signal);
    for (let attempt = 1; outcome === 'retry' && attempt < 5; attempt++) outcome = await runSync(workerServices, id, new AbortController().signal);
    if (outcome !== 'completed') throw new Error(`a ${kind} sync ended ${outcome}`);
  };

  log('initial sync');
  standin.resetCounters();
  const initialStarted = performance.now();
  await sync('initial');
  const initialByKind: Record<string, number> = {};
  for (const request of standin.requests) addTo(initialByKind, kindOf(request));
  const initial = {
    calls: standin.requests.length,
    tokenCalls: standin.tokenCalls.total,
    seconds: round((performance.now() - initialStarted) / 1000, 1),
    byKind: initialByKind,
  };
  log(`initial sync: ${initial.calls} calls in ${initial.seconds} s`);
  await startWriteWorkers(boss, workerServices, { concurrency: 2 });

  const refs = await services.pool.query<{ object_type: string; id: string; code: string | null; name: string | null }>(
    `SELECT object_type, id, data->>'nominal_code' AS code, data->>'vendor_name' AS name FROM records
      WHERE connection_id = $1 AND deleted_at IS NULL AND object_type IN ('vendor', 'account')`,
    [connection.id],
  );
  const vendorIds = refs.rows.filter((r) => r.object_type === 'vendor').map((r) => r.id);
  const expense = refs.rows.find((r) => r.object_type === 'account' && r.code === '429')?.id;
  if (vendorIds.length === 0 || expense === undefined) throw new Error('the initial sync stored no vendor or no expense account 429');
  const authorization = `Basic ${Buffer.from(`${org.credentials.sandbox.client_id}:${org.credentials.sandbox.client_secret}`).toString('base64')}`;

  // The simulated clock, in minutes since the month began; the stored token's life on it.
  let tokenValidUntil = 0;
  const tokensAt = async (minute: number): Promise<void> => {
    if (minute < tokenValidUntil - 1) return;
    const sealed = await services.pool.query<{ sealed: Buffer | null }>('SELECT oauth_tokens_ciphertext AS sealed FROM connections WHERE id = $1', [
      connection.id,
    ]);
    const tokens = openTokens(services.cipher, sealed.rows[0]?.sealed ?? null);
    if (tokens === null) throw new Error('the connection has no tokens');
    await services.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [
      connection.id,
      sealJson(services.cipher, { ...tokens, expiresAt: new Date(Date.now() - 1_000).toISOString() }),
    ]);
    tokenValidUntil = minute + TOKEN_MINUTES;
  };

  const rng = generator(31);
  const editable = books.all('Invoices').filter((i) => i.Status === 'AUTHORISED' || i.Status === 'DRAFT');
  const withFiles = editable.filter((i) => (books.attachments[String(i.InvoiceID)] ?? []).length > 0);
  const plain = editable.filter((i) => (books.attachments[String(i.InvoiceID)] ?? []).length === 0);
  let edits = 0;
  let written = 0;

  /** Xero's notification of a change to one document, received by the service (webhooks on only). */
  const notify = async (invoiceId: string, eventType: 'CREATE' | 'UPDATE'): Promise<void> => {
    const sent = xeroWebhook([{ tenantId: tenant.id, category: 'INVOICE', resourceId: invoiceId, eventType }], WEBHOOK_KEY);
    const response = await app.inject({
      method: 'POST',
      url: `/platform-webhooks/${PLATFORM}/${organizationId}/sandbox`,
      payload: sent.body,
      headers: { 'content-type': 'application/json', ...sent.headers },
    });
    if (response.statusCode !== 200) throw new Error(`the notification answered ${response.statusCode}: ${response.body}`);
  };

  const writeBill = async (): Promise<string | null> => {
    written += 1;
    const response = await app.inject({
      method: 'POST',
      url: `/versioned/accounting/bills?access_token=${accessToken}`,
      headers: { authorization, 'x-service-version': VERSION },
      payload: {
        bill: {
          vendor_id: vendorIds[written % vendorIds.length],
          issue_date: new Date().toISOString().slice(0, 10) + 'T00:00:00.000Z',
          due_date: new Date(Date.now() + 30 * DAY_MS).toISOString().slice(0, 10) + 'T00:00:00.000Z',
          document_number: `BENCH-W-${written}`,
          line_items: [{ account_id: expense, total_amount: 100 + (written % 50), description: `Bench write ${written}` }],
        },
      },
    });
    if (response.statusCode !== 200) throw new Error(`bill write ${written} answered ${response.statusCode}: ${response.body}`);
    const bill = (JSON.parse(response.body) as { bill?: { platform_id?: unknown } }).bill;
    return typeof bill?.platform_id === 'string' ? bill.platform_id : null;
  };
  /** The follow-up sync the write queued (requested just after the write's answer, so awaited here), run at once. */
  const followUps = async (): Promise<number> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const queued = await services.pool.query<{ id: string }>(
        `SELECT id FROM sync_runs WHERE connection_id = $1 AND status = 'queued' ORDER BY created_at`,
        [connection.id],
      );
      if (queued.rows.length > 0 || Date.now() > deadline) {
        for (const run of queued.rows) await sync('incremental', run.id);
        return queued.rows.length;
      }
      await sleep(5);
    }
  };

  const days: DayCount[] = [];
  for (let day = 1; day <= DAYS; day++) {
    const dayStarted = performance.now();
    standin.resetCounters();
    // A day since the last full attachment listing, as the wall clock would have it.
    await services.pool.query(
      `UPDATE sync_objects SET since_cursor = regexp_replace(since_cursor, ':[0-9]+$', ':' || $2::text) WHERE connection_id = $1 AND object_type = 'attachment'`,
      [connection.id, String(Date.now() - 25 * 3_600_000)],
    );
    const count: DayCount = {
      day,
      total: 0,
      tokenCalls: 0,
      byKind: {},
      byActivity: { 'hourly syncs': 0, 'bill writes': 0, 'write follow-up syncs': 0, 'webhook syncs': 0 },
      syncs: 0,
      writes: 0,
      wallSeconds: 0,
    };
    let seen = 0;
    const tally = (activity: Activity): void => {
      for (const request of standin.requests.slice(seen)) addTo(count.byKind, kindOf(request));
      count.byActivity[activity] += standin.requests.length - seen;
      seen = standin.requests.length;
    };
    const writeMinutes = Array.from({ length: WRITES_PER_DAY }, (_v, k) => Math.floor((k * 1_440) / WRITES_PER_DAY) + 10);
    for (let hour = 0; hour < 24; hour++) {
      for (let e = 0; e < EDITS_PER_HOUR; e++) {
        edits += 1;
        const document = rng.pick(edits % 10 === 0 ? withFiles : plain);
        books.change('Invoices', String(document.InvoiceID), (record) => {
          record.Reference = `Edited in Xero ${edits}`;
        });
        if (WEBHOOKS) {
          await tokensAt((day - 1) * 1_440 + hour * 60);
          await notify(String(document.InvoiceID), 'UPDATE');
          count.syncs += await followUps();
          tally('webhook syncs');
        }
      }
      await tokensAt((day - 1) * 1_440 + hour * 60);
      await sync('incremental');
      count.syncs += 1;
      tally('hourly syncs');
      for (const minute of writeMinutes.filter((m) => m >= hour * 60 && m < (hour + 1) * 60)) {
        await tokensAt((day - 1) * 1_440 + minute);
        const billId = await writeBill();
        count.writes += 1;
        tally('bill writes');
        // Xero notifies our own write too; its targeted sync joins the write's follow-up when that covers the types.
        if (WEBHOOKS && billId !== null) await notify(billId, 'CREATE');
        count.syncs += await followUps();
        tally('write follow-up syncs');
      }
    }
    count.total = standin.requests.length;
    count.tokenCalls = standin.tokenCalls.total;
    count.wallSeconds = round((performance.now() - dayStarted) / 1000, 1);
    days.push(count);
    log(
      `day ${day}: ${count.total} API calls (+${count.tokenCalls} token refreshes): hourly syncs ${count.byActivity['hourly syncs']}, ` +
        `bill writes ${count.byActivity['bill writes']}, follow-ups ${count.byActivity['write follow-up syncs']}, ` +
        `webhook syncs ${count.byActivity['webhook syncs']}; ${count.wallSeconds} s`,
    );
  }

  const totals = days.map((d) => d.total);
  const maxDay = days.reduce<DayCount | undefined>((max, d) => (max === undefined || d.total > max.total ? d : max), undefined);
  const kinds = [...new Set(days.flatMap((d) => Object.keys(d.byKind)))].sort();
  const typicalByKind = Object.fromEntries(kinds.map((k) => [k, median(days.map((d) => d.byKind[k] ?? 0))]));
  const over = days.filter((d) => d.total > BUDGET).map((d) => d.day);
  process.stdout.write('\nAPI calls per simulated day, by kind (median day; max day)\n');
  for (const kind of kinds.sort((a, b) => (typicalByKind[b] ?? 0) - (typicalByKind[a] ?? 0)))
    process.stdout.write(`  ${String(typicalByKind[kind]).padStart(6)}  ${String(maxDay?.byKind[kind] ?? 0).padStart(6)}  ${kind}\n`);
  process.stdout.write(
    `  ${String(median(totals)).padStart(6)}  ${String(maxDay?.total ?? 0).padStart(6)}  total (budget ${BUDGET}; days over: ${over.length === 0 ? 'none' : over.join(', ')})\n`,
  );
  const summary = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    days: DAYS,
    webhooks: WEBHOOKS,
    budget: BUDGET,
    organisation: {
      documents: documents.length,
      bills: documents.filter((i) => i.Type === 'ACCPAY').length,
      invoices: documents.filter((i) => i.Type === 'ACCREC').length,
      withFiles: grown.withFiles,
      files: Object.values(books.attachments).reduce((sum, files) => sum + files.length, 0),
      payments: books.all('Payments').length,
      creditNotes: books.all('CreditNotes').length,
    },
    perDay: { hourlySyncs: 24, billWrites: WRITES_PER_DAY, editsInXero: 24 * EDITS_PER_HOUR, editsOfDocumentsWithFiles: (24 * EDITS_PER_HOUR) / 10 },
    initialSync: initial,
    maxDay: { day: maxDay?.day ?? null, total: maxDay?.total ?? 0 },
    typicalDay: {
      total: median(totals),
      tokenCalls: median(days.map((d) => d.tokenCalls)),
      byActivity: Object.fromEntries(
        (['hourly syncs', 'bill writes', 'write follow-up syncs', 'webhook syncs'] as const).map((a) => [
          a,
          median(days.map((d) => d.byActivity[a])),
        ]),
      ),
      byKind: typicalByKind,
    },
    daysOverBudget: over,
    violations: standin.violations.length,
    wallSeconds: round((performance.now() - began) / 1000, 0),
  };
  const saved = { ...summary, dayCounts: days };
  await mkdir(path.join(ROOT, 'bench', 'results'), { recursive: true });
  const file = WEBHOOKS ? 'xero-busy-month-webhooks.json' : 'xero-busy-month.json';
  await writeFile(path.join(ROOT, 'bench', 'results', file), `${JSON.stringify(saved, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  if (standin.violations.length > 0) process.stdout.write(`contract violations: ${JSON.stringify(standin.violations.slice(0, 5), null, 2)}\n`);
} catch (error) {
  process.stderr.write(`xero busy month bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await app.close();
  await standin.close();
  restore();
  await bench.close();
}
