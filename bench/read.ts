/**
 * Reads: GET /versioned/accounting/bills?limit=50 with a filter and the default
 * sort (updated_at DESC), authenticated, rate-limited (the limit raised for the
 * run) and versioned, served by the real API process from a store of
 * `records` records over 200 connections; side by side in the same run with
 * the bare handler (bench/bare-server.ts) answering the same bytes from the
 * same SQL. Then page 1 against page 1,000 of a 100,000-bill connection.
 *
 * The store is made from the ingest benchmark's synced records: each of the
 * 200 connections gets every 200th of them (mixed types, as synced), under its
 * own ids; the 100,000-bill connection repeats the synced bills under new ids.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createConnection } from '../src/connections/connections.ts';
import type { Pool } from '../src/db/pool.ts';
import { createOrganization } from '../src/tenants/organizations.ts';
import type { Tenant } from '../src/tenants/types.ts';
import type { BenchContext } from './lib/context.ts';
import { BENCH_DATA_DIR } from './lib/context.ts';
import { combine, load, type LoadResult } from './lib/load.ts';
import { rssMb, sampleRss, spawnNode, waitForOk, type Child } from './lib/processes.ts';
import { ratio, round, timed } from './lib/stats.ts';

const CONNECTIONS = 200;
const DEEP_BILLS = 100_000;
const PAGE = 50;
const FILTER = 'status = "paid"';
const VERSION = '2024-08-31';

export interface ReadResult {
  storeRecords: number;
  connections: number;
  filter: string;
  matchingShare: number;
  buildSeconds: number;
  sameBytes: boolean;
  clients: number;
  seconds: number;
  ledgerport: LoadResult;
  bare: LoadResult;
  throughputVsBare: number;
  apiRssIdleMb: number;
  apiRssUnderLoadMb: number;
  deep: { bills: number; page1: LoadResult; page1000: LoadResult; p50Ratio: number; p99Ratio: number; throughputRatio: number };
}

interface StoreConnection {
  accessToken: string;
  id: string;
  platform: string;
  orgId: string;
}

async function newConnections(bench: BenchContext, tenant: Tenant, prefix: string, n: number): Promise<StoreConnection[]> {
  const { pool, cipher } = bench.runtime.services;
  const made: StoreConnection[] = [];
  for (let i = 0; i < n; i++) {
    const { connection } = await createConnection(pool, cipher, tenant, {
      platform: 'SANDBOX',
      name: null,
      credentials: { basic_username: `user_${prefix}_${i}`, basic_password: 'pass_good' },
      identity: { storeUniqueId: `${prefix}-${i}`, storeName: `Bench ${prefix} ${i}` },
      syncConfig: null,
      scope: null,
      marketplace: null,
      redirectUrl: null,
    });
    made.push({
      accessToken: cipher.decrypt(connection.accessTokenCiphertext),
      id: connection.id,
      platform: 'SANDBOX',
      orgId: tenant.organizationId,
    });
  }
  // As after a finished initial sync: the data endpoints serve them.
  await pool.query(`UPDATE connections SET status = 'active', ready_at = clock_timestamp() WHERE id = ANY($1::uuid[])`, [made.map((c) => c.id)]);
  // Bills read in full, as after the initial sync: an empty page is then an answer, not ENTITY_NOT_READY.
  await pool.query(
    `INSERT INTO sync_objects (connection_id, object_type, status, last_completed_at) SELECT c, 'bill', 'completed', clock_timestamp() FROM unnest($1::uuid[]) AS c`,
    [made.map((c) => c.id)],
  );
  return made;
}

/** Copies rows of the source connection under the target connections, with ids derived like the service's (one per connection, type, platform id). */
const COPY_COLUMNS = `object_type, platform_id, data, raw, content_hash, raw_hash, updated_at, created_at, business_date, last_synced_at`;

async function spreadRecords(pool: Pool, sourceId: string, targets: string[]): Promise<number> {
  const result = await pool.query(
    `WITH source AS (
       SELECT ${COPY_COLUMNS}, (row_number() OVER ()) % $2 AS k FROM records WHERE connection_id = $1 AND deleted_at IS NULL
     ), target AS (
       SELECT id, ordinality - 1 AS k FROM unnest($3::uuid[]) WITH ORDINALITY AS t(id, ordinality)
     ), moved AS (
       SELECT t.id AS connection_id, s.*, md5(t.id::text || s.object_type || s.platform_id)::uuid AS new_id FROM source s JOIN target t USING (k)
     )
     INSERT INTO records (connection_id, id, ${COPY_COLUMNS})
     SELECT connection_id, new_id, object_type, platform_id, jsonb_set(data, '{id}', to_jsonb(new_id::text)), raw, content_hash, raw_hash,
            updated_at, created_at, business_date, last_synced_at FROM moved`,
    [sourceId, targets.length, targets],
  );
  return result.rowCount ?? 0;
}

async function repeatBills(pool: Pool, sourceId: string, targetId: string, bills: number): Promise<number> {
  const result = await pool.query(
    `WITH source AS (SELECT ${COPY_COLUMNS} FROM records WHERE connection_id = $1 AND object_type = 'bill' AND deleted_at IS NULL),
          copies AS (SELECT s.*, g FROM source s, generate_series(0, (SELECT ceil($3::numeric / greatest(count(*), 1)) FROM source)::int - 1) g LIMIT $3),
          moved AS (SELECT c.*, c.platform_id || '~' || c.g AS new_platform_id, md5($2::uuid::text || c.platform_id || '~' || c.g)::uuid AS new_id FROM copies c)
     INSERT INTO records (connection_id, id, ${COPY_COLUMNS})
     SELECT $2::uuid, new_id, object_type, new_platform_id,
            jsonb_set(jsonb_set(data, '{id}', to_jsonb(new_id::text)), '{platform_id}', to_jsonb(new_platform_id)), raw, content_hash, raw_hash,
            updated_at, created_at, business_date, last_synced_at FROM moved`,
    [sourceId, targetId, bills],
  );
  return result.rowCount ?? 0;
}

function billsPath(token: string, extra: Record<string, string>): string {
  return `/versioned/accounting/bills?${new URLSearchParams({ access_token: token, limit: String(PAGE), ...extra }).toString()}`;
}

async function body(url: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

export async function readBench(
  bench: BenchContext,
  sourceConnectionId: string,
  options: { clients: number; seconds: number },
  log: (m: string) => void,
): Promise<ReadResult> {
  const { pool } = bench.runtime.services;
  // The store is built just before the measurement: autovacuum would take its million new rows at a random moment of
  // the 30 s of reads (the likely cause of two runs here in which both servers fell to a tenth and to a half of their
  // usual throughput). The build ends with ANALYZE.
  await pool.query('ALTER TABLE records SET (autovacuum_enabled = off)');
  try {
    return await measureReads(bench, sourceConnectionId, options, log);
  } finally {
    await pool.query('ALTER TABLE records RESET (autovacuum_enabled)');
  }
}

async function measureReads(
  bench: BenchContext,
  sourceConnectionId: string,
  options: { clients: number; seconds: number },
  log: (m: string) => void,
): Promise<ReadResult> {
  const { pool, cipher } = bench.runtime.services;
  const org = await createOrganization(pool, cipher, 'Bench: reads');
  const tenant: Tenant = { organizationId: org.organization.id, environment: 'sandbox' };
  const { client_id: clientId, client_secret: clientSecret } = org.credentials.sandbox;
  const headers = { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'x-service-version': VERSION };

  log(`reads: building the store (${CONNECTIONS} connections and a ${DEEP_BILLS}-bill connection)`);
  const built = await timed(async () => {
    const spread = await newConnections(bench, tenant, 'bench-read', CONNECTIONS);
    const stored = await spreadRecords(
      pool,
      sourceConnectionId,
      spread.map((c) => c.id),
    );
    const [deep] = await newConnections(bench, tenant, 'bench-deep', 1);
    if (deep === undefined) throw new Error('no deep connection');
    const bills = await repeatBills(pool, sourceConnectionId, deep.id, DEEP_BILLS);
    await pool.query('ANALYZE records');
    return { spread, stored, deep, bills };
  });
  const { spread, stored, deep, bills } = built.result;
  const matching =
    (
      await pool.query<{ share: number }>(
        `SELECT (count(*) FILTER (WHERE data->>'status' = 'paid'))::float8 / greatest(count(*), 1) AS share
       FROM records WHERE connection_id = ANY($1::uuid[]) AND object_type = 'bill'`,
        [spread.map((c) => c.id)],
      )
    ).rows[0]?.share ?? 0;

  const file = path.join(BENCH_DATA_DIR, 'bare-connections.json');
  await writeFile(file, JSON.stringify([...spread, deep]));
  const apiPort = 27501;
  const barePort = 27502;
  const children: Child[] = [];
  try {
    const api = spawnNode('src/main.ts', ['--role=api'], bench.childEnv({ PORT: String(apiPort), HOST: '127.0.0.1' }));
    children.push(api);
    const bare = spawnNode('bench/bare-server.ts', [], {
      DATABASE_URL: bench.runtime.databaseUrl,
      PORT: String(barePort),
      BENCH_BARE_CONNECTIONS: file,
    });
    children.push(bare);
    await waitForOk(`http://127.0.0.1:${apiPort}/healthz`, api, performance.now());
    await waitForOk(`http://127.0.0.1:${barePort}/healthz`, bare, performance.now());
    const apiBase = `http://127.0.0.1:${apiPort}`;
    const bareBase = `http://127.0.0.1:${barePort}`;

    const paths = spread.map((c) => billsPath(c.accessToken, { filter: FILTER }));
    const first = paths[0] ?? '';
    const sameBytes = (await body(apiBase + first, headers)) === (await body(bareBase + first, headers));
    if (!sameBytes) log('reads: WARNING: the bare handler does not answer the same bytes');
    const apiRssIdleMb = await rssMb(api.child.pid);

    const run = (base: string, runPaths: readonly string[], seconds: number): Promise<LoadResult> =>
      load(base, { paths: runPaths, headers, connections: options.clients, seconds });
    log('reads: warm-up');
    await run(bareBase, paths, 3);
    await run(apiBase, paths, 3);
    // Alternating halves (bare, Ledgerport, Ledgerport, bare): a background stall of the machine (autovacuum after
    // the store was built, another process) weighs on both sides alike instead of on whichever ran second.
    const half = options.seconds / 2;
    log(`reads: bare handler and Ledgerport, ${options.seconds} s each in alternating halves`);
    const rss = sampleRss(api.child.pid);
    const bareRuns = [await run(bareBase, paths, half)];
    const apiRuns = [await run(apiBase, paths, half), await run(apiBase, paths, half)];
    bareRuns.push(await run(bareBase, paths, half));
    const apiRssUnderLoadMb = await rss.stop();
    const bareResult = combine(bareRuns, options.seconds);
    const ledgerport = combine(apiRuns, options.seconds);

    log('reads: walking to page 1,000 of the 100,000-bill connection');
    let cursor: string | null = null;
    for (let page = 1; page < 1000; page++) {
      const text = await body(apiBase + billsPath(deep.accessToken, cursor === null ? {} : { cursor }), headers);
      cursor = (JSON.parse(text) as { next_cursor: string | null }).next_cursor;
      if (cursor === null) throw new Error(`the deep connection ended at page ${page}`);
    }
    const page1Path = billsPath(deep.accessToken, {});
    const page1000Path = billsPath(deep.accessToken, { cursor: cursor ?? '' });
    await run(apiBase, [page1000Path], 2);
    const page1 = await run(apiBase, [page1Path], options.seconds);
    const page1000 = await run(apiBase, [page1000Path], options.seconds);
    return {
      storeRecords: stored,
      connections: CONNECTIONS,
      filter: FILTER,
      matchingShare: round(matching, 2),
      buildSeconds: round(built.ms / 1000, 1),
      sameBytes,
      clients: options.clients,
      seconds: options.seconds,
      ledgerport,
      bare: bareResult,
      throughputVsBare: ratio(ledgerport.requestsPerSecond, bareResult.requestsPerSecond),
      apiRssIdleMb,
      apiRssUnderLoadMb,
      deep: {
        bills,
        page1,
        page1000,
        p50Ratio: ratio(page1000.p50Ms, page1.p50Ms),
        p99Ratio: ratio(page1000.p99Ms, page1.p99Ms),
        throughputRatio: ratio(page1.requestsPerSecond, page1000.requestsPerSecond),
      },
    };
  } finally {
    for (const child of children) await child.stop();
  }
}
