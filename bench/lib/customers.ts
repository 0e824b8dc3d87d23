/**
 * Organisations with customers to list, and the two kinds of list load of the tenant figures: a bystander's light
 * lists (a few clients, `status = "active"`) and a flood of the most expensive filter allowed (ten `~` comparisons
 * that match nothing: every record is scanned ten times).
 */
import autocannon from 'autocannon';
import { accessTokenOf, createConnection } from '../../src/connections/connections.ts';
import type { Runtime } from '../../src/runtime.ts';
import { createOrganization, type CreatedOrganization } from '../../src/tenants/organizations.ts';
import type { Tenant } from '../../src/tenants/types.ts';
import { load, type LoadResult } from './load.ts';
import { spawn } from 'node:child_process';
import { ROOT } from './processes.ts';
import { round } from './stats.ts';

const VERSION = '2024-08-31';
export const HEAVY_FILTER = Array.from({ length: 10 }, (_, i) => `customer_name ~ "zq${i}x"`).join(' OR ');
export const LIGHT_FILTER = 'status = "active"';

export interface CustomerOrganization {
  org: CreatedOrganization;
  tenant: Tenant;
  token: string;
}

function basic(org: CreatedOrganization): string {
  const { client_id, client_secret } = org.credentials.sandbox;
  return `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`;
}

/** An organisation with one ready SANDBOX connection holding `records` customers, made in SQL (no sync needed). */
export async function organizationWithCustomers(
  runtime: Runtime,
  name: string,
  records: number,
  /** Lines in each record's platform data (about 90 bytes each): what `expand=platform_data` reads and sends. */
  rawLines = 0,
): Promise<CustomerOrganization> {
  const { pool, cipher } = runtime.services;
  const org = await createOrganization(pool, cipher, name);
  const tenant: Tenant = { organizationId: org.organization.id, environment: 'sandbox' };
  const { connection } = await createConnection(pool, cipher, tenant, {
    platform: 'SANDBOX',
    name: null,
    credentials: { basic_username: `user_${name}`, basic_password: 'pass_good' },
    identity: { storeUniqueId: name, storeName: name },
    syncConfig: null,
    scope: null,
    marketplace: null,
    redirectUrl: null,
  });
  await pool.query(`UPDATE connections SET status = 'active', ready_at = clock_timestamp() WHERE id = $1`, [connection.id]);
  // As a finished initial sync leaves it: customers were read in full (a list that matches nothing is then an empty page).
  await pool.query(
    `INSERT INTO sync_objects (connection_id, object_type, status, last_completed_at) VALUES ($1, 'customer', 'completed', clock_timestamp())`,
    [connection.id],
  );
  await pool.query(
    `INSERT INTO records (connection_id, object_type, id, platform_id, data, raw, content_hash, updated_at, created_at, last_synced_at)
     SELECT $1::uuid, 'customer', u.id, 'C-' || i, jsonb_build_object(
              'id', u.id, 'platform_id', 'C-' || i, 'parent_id', null, 'payment_terms_id', null, 'subsidiary_id', null,
              'status', CASE WHEN i % 5 = 0 THEN 'archived' ELSE 'active' END, 'contact_name', 'Contact ' || i, 'currency_code', 'EUR',
              'customer_name', (ARRAY['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark'])[i % 6 + 1] || ' ' || substr(md5(i::text), 1, 8) || ' Trading Ltd',
              'email', 'c' || i || '@example.com', 'phone', null, 'registration_number', null, 'tax_number', null, 'subsidiaries', null,
              'addresses', '[]'::jsonb, 'contacts', '[]'::jsonb, 'created_at', to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
              'updated_at', to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'platform_url', null),
            jsonb_build_object('Id', i, 'DisplayName', 'Customer ' || i, 'Lines', coalesce((
              SELECT jsonb_agg(jsonb_build_object('LineNum', k, 'Amount', k * 1.5, 'Description', 'Line ' || k || ' ' || md5((i * 1000 + k)::text)))
                FROM generate_series(1, $3::int) AS k), '[]'::jsonb)),
            sha256(i::text::bytea), t, t, t
       FROM generate_series(1, $2::int) AS i,
            LATERAL (SELECT md5($1::text || i)::uuid AS id, timestamptz '2024-01-01' + i * interval '1 minute' AS t) AS u`,
    [connection.id, records, rawLines],
  );
  await pool.query('ANALYZE records');
  return { org, tenant, token: accessTokenOf(cipher, connection) };
}

function listPath(owner: CustomerOrganization, filter: string): string {
  return `/versioned/accounting/customers?access_token=${owner.token}&limit=50&filter=${encodeURIComponent(filter)}`;
}

function headers(owner: CustomerOrganization): Record<string, string> {
  return { authorization: basic(owner.org), 'x-service-version': VERSION };
}

export interface FloodResult {
  requests: number;
  ok: number;
  tooMany: number;
  otherClientErrors: number;
  serverErrors: number;
  otherFailures: number;
  p50Ms: number;
  p99Ms: number;
}

/** `clients` concurrent lists with HEAVY_FILTER for `seconds`; every answer counted by status. */
export function flood(baseUrl: string, owner: CustomerOrganization, clients: number, seconds: number): Promise<FloodResult> {
  return floodWith(baseUrl, clients, seconds, { headers: headers(owner), requests: [{ method: 'GET', path: listPath(owner, HEAVY_FILTER) }] });
}

/** `clients` concurrent first pages of 50 customers with their platform data (`expand=platform_data`). */
export function platformDataFlood(baseUrl: string, owner: CustomerOrganization, clients: number, seconds: number): Promise<FloodResult> {
  const path = `/versioned/accounting/customers?access_token=${owner.token}&limit=50&expand=platform_data`;
  return floodWith(baseUrl, clients, seconds, { headers: headers(owner), requests: [{ method: 'GET', path }] });
}

/** What bench/lib/flood-child.ts floods with, from its own process (an attacker is not the bystander's client). */
export type FloodOrder =
  | { kind: 'platformData'; baseUrl: string; owner: CustomerOrganization; clients: number; seconds: number }
  | { kind: 'forgedWebhooks'; baseUrl: string; organizationId: string; clients: number; seconds: number; bytes: number };

export function runFlood(order: FloodOrder): Promise<FloodResult> {
  return order.kind === 'platformData'
    ? platformDataFlood(order.baseUrl, order.owner, order.clients, order.seconds)
    : forgedWebhookFlood(order.baseUrl, order.organizationId, order.clients, order.seconds, order.bytes);
}

/**
 * Runs the flood in a child process at the lowest CPU priority (nice 19): an attacker's client runs on its own
 * machine, and on the benchmark's two cores its work (writing 900 KB bodies, parsing 900 KB answers) would otherwise
 * take CPU from the server and the bystander's client that it never takes in production. BENCH_FLOOD_NICE=0 floods
 * at full strength, as the issue's review did.
 */
export async function floodFromAnotherProcess(order: FloodOrder): Promise<FloodResult> {
  const niced = ['nice', '-n', process.env.BENCH_FLOOD_NICE ?? '19', process.execPath, 'bench/lib/flood-child.ts', JSON.stringify(order)];
  // BENCH_FLOOD_CPU pins the attacker to its own core (taskset), as if it sent from another host: run the bench itself
  // pinned to the other cores (`taskset -c 0 node bench/tenant-isolation.ts`) so the server never shares the attacker's.
  const cpu = process.env.BENCH_FLOOD_CPU;
  const [command = 'nice', ...args] = cpu === undefined || cpu === '' ? niced : ['taskset', '-c', cpu, ...niced];
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`flood process exited with ${String(code)}:\n${output}`);
  return JSON.parse(output.trim().split('\n').at(-1) ?? '') as FloodResult;
}

/**
 * `clients` concurrent unauthenticated posts of `bytes` each to an organisation's Xero webhook address, signed with a
 * key that is not its key: a forger's flood.
 */
export function forgedWebhookFlood(baseUrl: string, organizationId: string, clients: number, seconds: number, bytes: number): Promise<FloodResult> {
  const filler = 'x'.repeat(Math.max(0, bytes - 100));
  const body = JSON.stringify({ events: [], firstEventSequence: 0, lastEventSequence: 0, entropy: filler });
  return floodWith(baseUrl, clients, seconds, {
    headers: { 'content-type': 'application/json', 'x-xero-signature': 'Zm9yZ2VkLXNpZ25hdHVyZS1vZi1ub2JvZHk=' },
    requests: [{ method: 'POST', path: `/platform-webhooks/XERO/${organizationId}/sandbox`, body }],
  });
}

async function floodWith(
  baseUrl: string,
  clients: number,
  seconds: number,
  options: { headers: Record<string, string>; requests: autocannon.Request[] },
): Promise<FloodResult> {
  const result = await autocannon({ url: baseUrl, connections: clients, duration: seconds, timeout: 30, ...options });
  const tooMany = result.statusCodeStats['429']?.count ?? 0;
  return {
    requests: result.requests.total,
    ok: result['2xx'],
    tooMany,
    otherClientErrors: result['4xx'] - tooMany,
    serverErrors: result['5xx'],
    otherFailures: result.errors + result.timeouts,
    p50Ms: round(result.latency.p50, 1),
    p99Ms: round(result.latency.p99, 1),
  };
}

/** `clients` keep-alive clients listing LIGHT_FILTER for `seconds`. */
export function bystander(baseUrl: string, owner: CustomerOrganization, clients: number, seconds: number): Promise<LoadResult> {
  return load(baseUrl, { paths: [listPath(owner, LIGHT_FILTER)], headers: headers(owner), connections: clients, seconds });
}
