/**
 * Webhook receivers for the fairness figures: one answers 200 at once (live), the other never answers (dead, so
 * each attempt runs into WEBHOOK_TIMEOUT_MS). Both remember each event's first arrival; the dead one also how many
 * requests it held open at once. Plus the events they are sent and the time from an event's commit to its arrival.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cipher } from '../../src/crypto/secrets.ts';
import type { Pool } from '../../src/db/pool.ts';
import { emitEvents } from '../../src/events/emit.ts';
import type { Tenant } from '../../src/tenants/types.ts';
import { percentile, round } from './stats.ts';
import { closeServer, listenOnLoopback } from '../../test/support/loopback-server.ts';

export class Receiver {
  /** First arrival (ms since epoch) of each event id. */
  readonly firstSeen = new Map<string, number>();
  open = 0;
  maxOpen = 0;
  private readonly server: http.Server;

  constructor(dead: boolean) {
    this.server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const id = String(request.headers['x-service-event-id']);
        if (!this.firstSeen.has(id)) this.firstSeen.set(id, Date.now());
        if (!dead) {
          response.writeHead(200).end();
          return;
        }
        this.open += 1;
        this.maxOpen = Math.max(this.maxOpen, this.open);
        request.socket.once('close', () => {
          this.open -= 1;
        });
      });
    });
  }

  listen(): Promise<string> {
    return listenOnLoopback(this.server, '/hooks');
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

/** Points the tenant's webhooks at `url` (straight in SQL: the admin API is not what is measured). */
export async function addWebhookEndpoint(pool: Pool, tenant: Tenant, url: string): Promise<void> {
  await pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    tenant.organizationId,
    tenant.environment,
    url,
  ]);
}

export async function removeWebhookEndpoints(pool: Pool, tenants: readonly Tenant[]): Promise<void> {
  await pool.query('DELETE FROM webhook_endpoints WHERE organization_id = ANY($1::uuid[])', [tenants.map((t) => t.organizationId)]);
}

/** An event numbered `n`, labelled with the `phase` of the run it belongs to. */
export function numberedEvent(n: number, phase = ''): { connectionId: null; type: string; code: string; payload: Record<string, unknown> } {
  return {
    connectionId: null,
    type: 'CONNECTION',
    code: 'CONNECTION_UPDATED',
    payload: { type: 'CONNECTION', code: 'CONNECTION_UPDATED', fairness_n: n, fairness_phase: phase },
  };
}

/** Emits `count` numbered events one at a time, evenly over `seconds`. */
export async function emitSteadily(pool: Pool, cipher: Cipher, tenant: Tenant, count: number, seconds: number, phase = ''): Promise<void> {
  const tickMs = (seconds * 1000) / count;
  const start = Date.now();
  for (let n = 0; n < count; n++) {
    await emitEvents(pool, cipher, tenant, [numberedEvent(n, phase)]);
    await sleep(Math.max(0, start + (n + 1) * tickMs - Date.now()));
  }
}

/** Polls `done` every 20 ms until it holds or `timeoutMs` passes; says whether it held. */
export async function waitUntil(done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await done()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(20);
  }
}

/** Ms from each of the organisation's events (of `phase`, if given) being committed to its first arrival; unarrived ones left out. */
export async function arrivalDelays(pool: Pool, organizationId: string, receiver: Receiver, phase?: string): Promise<number[]> {
  const created = await pool.query<{ id: string; at: number }>(
    `SELECT id, (extract(epoch FROM created_at) * 1000)::float8 AS at FROM events
      WHERE organization_id = $1 AND ($2::text IS NULL OR payload->>'fairness_phase' = $2)`,
    [organizationId, phase ?? null],
  );
  return created.rows.map((row) => (receiver.firstSeen.get(row.id) ?? Number.NaN) - row.at).filter((d) => !Number.isNaN(d));
}

export interface ArrivalSummary {
  arrived: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  within5s: number;
}

export function summariseArrivals(delays: readonly number[]): ArrivalSummary {
  return {
    arrived: delays.length,
    p50Ms: round(percentile(delays, 50), 1),
    p99Ms: round(percentile(delays, 99), 1),
    maxMs: round(Math.max(0, ...delays), 1),
    within5s: delays.filter((d) => d <= 5_000).length,
  };
}
