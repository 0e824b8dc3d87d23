/**
 * Webhooks: signed deliveries per second from a real worker process to a local
 * receiver that verifies every signature (its own HMAC check, from the spec),
 * for a burst of events emitted at once; and, at a steady rate well below that,
 * the time from an event's commit to its first delivery attempt reaching the receiver.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { emitEvents } from '../src/events/emit.ts';
import { createOrganization } from '../src/tenants/organizations.ts';
import type { Tenant } from '../src/tenants/types.ts';
import type { BenchContext } from './lib/context.ts';
import { percentile, round } from './lib/stats.ts';
import { closeServer, listenOnLoopback } from '../test/support/loopback-server.ts';

export interface WebhookResult {
  burst: { events: number; seconds: number; deliveriesPerSecond: number; duplicates: number };
  steady: { eventsPerSecond: number; events: number; firstAttemptP50Ms: number; firstAttemptP99Ms: number };
  badSignatures: number;
}

class Receiver {
  /** First arrival (ms since epoch) of each event id. */
  readonly firstSeen = new Map<string, number>();
  arrivals = 0;
  badSignatures = 0;
  private readonly server: http.Server;
  private readonly secret: string;

  constructor(secret: string) {
    this.secret = secret;
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const at = Date.now();
        const body = Buffer.concat(chunks);
        const expected = `sha256=${createHmac('sha256', this.secret).update(body).digest('base64')}`;
        if (request.headers['x-service-signature'] !== expected) {
          this.badSignatures += 1;
          response.writeHead(401).end();
          return;
        }
        const id = String(request.headers['x-service-event-id']);
        this.arrivals += 1;
        if (!this.firstSeen.has(id)) this.firstSeen.set(id, at);
        response.writeHead(200).end();
      });
    });
  }

  listen(): Promise<string> {
    return listenOnLoopback(this.server, '/webhooks');
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

const event = (n: number): { connectionId: null; type: string; code: string; payload: Record<string, unknown> } => ({
  connectionId: null,
  type: 'CONNECTION',
  code: 'CONNECTION_UPDATED',
  payload: { type: 'CONNECTION', code: 'CONNECTION_UPDATED', bench_n: n },
});

async function waitFor(receiver: Receiver, total: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.firstSeen.size < total) {
    if (Date.now() > deadline) throw new Error(`only ${receiver.firstSeen.size} of ${total} events arrived in ${timeoutMs / 1000} s`);
    await sleep(20);
  }
}

export async function webhookBench(
  bench: BenchContext,
  options: { burst: number; steadyRate: number; steadySeconds: number },
  log: (m: string) => void,
): Promise<WebhookResult> {
  const { pool, cipher } = bench.runtime.services;
  const org = await createOrganization(pool, cipher, 'Bench: webhooks');
  const tenant: Tenant = { organizationId: org.organization.id, environment: 'sandbox' };
  const receiver = new Receiver(org.credentials.sandbox.client_secret);
  const url = await receiver.listen();
  await pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    tenant.organizationId,
    tenant.environment,
    url,
  ]);
  try {
    log(`webhooks: burst of ${options.burst} events`);
    const started = Date.now();
    for (let n = 0; n < options.burst; n += 1000) {
      await emitEvents(
        pool,
        cipher,
        tenant,
        Array.from({ length: Math.min(1000, options.burst - n) }, (_, k) => event(n + k)),
      );
    }
    await waitFor(receiver, options.burst, 300_000);
    const seconds = (Date.now() - started) / 1000;
    const duplicates = receiver.arrivals - receiver.firstSeen.size;

    log(`webhooks: steady ${options.steadyRate} events/s for ${options.steadySeconds} s`);
    const before = receiver.firstSeen.size;
    const tickMs = 50;
    const perTick = Math.max(1, Math.round((options.steadyRate * tickMs) / 1000));
    const ticks = Math.round((options.steadySeconds * 1000) / tickMs);
    const steadyStart = Date.now();
    for (let t = 0; t < ticks; t++) {
      await emitEvents(
        pool,
        cipher,
        tenant,
        Array.from({ length: perTick }, (_, k) => event(options.burst + t * perTick + k)),
      );
      const due = steadyStart + (t + 1) * tickMs;
      if (due > Date.now()) await sleep(due - Date.now());
    }
    const steadyEvents = ticks * perTick;
    await waitFor(receiver, before + steadyEvents, 120_000);
    const created = await pool.query<{ id: string; at: number }>(
      `SELECT id, (extract(epoch FROM created_at) * 1000)::float8 AS at FROM events
        WHERE organization_id = $1 AND (payload->>'bench_n')::int >= $2`,
      [tenant.organizationId, options.burst],
    );
    const delays = created.rows.map((row) => (receiver.firstSeen.get(row.id) ?? Number.NaN) - row.at).filter((d) => !Number.isNaN(d));
    return {
      burst: { events: options.burst, seconds: round(seconds, 1), deliveriesPerSecond: Math.round(options.burst / seconds), duplicates },
      steady: {
        eventsPerSecond: Math.round(steadyEvents / options.steadySeconds),
        events: steadyEvents,
        firstAttemptP50Ms: round(percentile(delays, 50), 1),
        firstAttemptP99Ms: round(percentile(delays, 99), 1),
      },
      badSignatures: receiver.badSignatures,
    };
  } finally {
    await pool.query('DELETE FROM webhook_endpoints WHERE organization_id = $1', [tenant.organizationId]);
    await receiver.close();
  }
}
