/**
 * Delivers webhooks from the outbox. Each worker process runs one dispatcher:
 * it claims due deliveries (SKIP LOCKED, leased), sends them signed with the
 * environment's active client secrets, logs every attempt, and settles each as
 * delivered, due again on the spec's schedule, or failed once the 15-minute
 * window has passed. New events wake it through LISTEN ledgerport_events (sent
 * by src/events/emit.ts); a short poll covers retries coming due and lost
 * notifications. Several processes share the work; a killed one loses only its
 * leases, which come due again for the others (at-least-once).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { listenOn, type Listener } from '../db/listener.ts';
import type { CoreServices } from '../core-services.ts';
import { scrubSecrets } from '../crypto/scrub.ts';
import { deliveredBody, linkTokenIn } from '../events/access-token-slot.ts';
import { findActiveSecretCiphertexts } from '../sql/active-secrets.ts';
import { EVENTS_CHANNEL } from '../sql/events.ts';
import { claimDueDeliveries, expireDeliveries, recordAttempts, releaseDeliveries, type ClaimedDelivery } from '../sql/webhook-deliveries.ts';
import { webhookAttempts, webhookDelay, webhookDeliveries, webhookDeliveryLag, webhookLatency } from '../metrics/registry.ts';
import { retryDelayMs, windowMs } from './schedule.ts';
import { createSender, type Send } from './sender.ts';
import { createSettler } from './settler.ts';
import { createEndpointShares } from './shares.ts';
import { signatureHeaders } from './signature.ts';
import { withIds } from '../log/logger.ts';
import { inSpan, SpanKind } from '../metrics/tracing.ts';

/** A payload field the log line names (connection_id, code), when the payload has it as text. */
function payloadText(payload: unknown, key: string): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const value: unknown = Reflect.get(payload, key);
  return typeof value === 'string' ? value : undefined;
}

export interface DispatcherOptions {
  /** Deliveries in flight at once per process; default WEBHOOK_CONCURRENCY. */
  concurrency?: number;
  /** Attempts one endpoint (organisation and environment) may have in flight in this process; default WEBHOOK_ENDPOINT_CONCURRENCY. */
  perEndpoint?: number;
  pollMs?: number;
  /** Replaces the HTTP sender (tests). */
  send?: Send;
}

const SECRET_CACHE_MS = 5_000;

/** A delivery attempt's span: ids and the receiver's host, never its URL (it may hold a key of the customer's). */
function deliverySpanAttributes(delivery: ClaimedDelivery): Record<string, string | number> {
  return {
    'ledgerport.delivery_id': delivery.id,
    'ledgerport.event_id': delivery.event_id,
    'ledgerport.organization_id': delivery.organization_id,
    'ledgerport.attempt': delivery.attempts,
    'server.address': hostOf(delivery.url) ?? '',
  };
}

function hostOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

export interface WebhookDispatcher {
  stop(): Promise<void>;
}

export function startWebhookDispatcher(services: CoreServices, options: DispatcherOptions = {}): WebhookDispatcher {
  const { config, pool, cipher } = services;
  // Attempts in flight; settles share one connection (src/webhooks/settler.ts), claims another.
  const concurrency = options.concurrency ?? config.webhookConcurrency;
  // A receiver that never answers holds at most its share of the slots; the others stay free for everyone else.
  const shares = createEndpointShares(options.perEndpoint ?? config.webhookEndpointConcurrency);
  const pollMs = options.pollMs ?? 500;
  const scale = config.webhookScheduleScale;
  const windowSeconds = windowMs(scale) / 1000;
  // The lease outlasts the wait for a slot plus the attempt, so a live worker always settles before anyone else may
  // claim. The longest wait: an organisation whose two receivers never answer has claimed twice its share for each
  // (4 shares) and runs one share at a time (src/webhooks/shares.ts): its last share starts after 3 timeouts and
  // ends after 4. Five timeouts leave one to spare; a crashed worker's claims come back after that.
  const leaseSeconds = Math.max(10, Math.ceil((config.webhookTimeoutMs * 5) / 1000));
  const sender = createSender({ allowPrivate: config.webhookAllowPrivate, timeoutMs: config.webhookTimeoutMs });
  const send: Send = options.send ?? sender.send;
  const secrets = new Map<string, { at: number; values: string[] }>();
  const settler = createSettler((attempts) => recordAttempts(pool, attempts));
  const inFlight = new Set<Promise<void>>();
  // Claimed ahead of a free slot, so claims go in batches instead of one statement per delivery. At most about
  // `concurrency` that may start wait here, plus what endpoints at their organisation's share have claimed ahead:
  // each waits at most a few attempts' timeouts for a slot, within its lease (above).
  const queued: ClaimedDelivery[] = [];
  const stopping = new AbortController();
  // A call, not a property read: checked again after each await (a narrowed read would look constant to the linter).
  const stopped = (): boolean => stopping.signal.aborted;
  let listener: Listener | null = null;
  // A wake-up that comes while the loop is busy is remembered, not lost.
  let woken = false;
  let resolveWait: () => void = () => undefined;
  const wake = (): void => {
    woken = true;
    resolveWait();
  };

  async function activeSecrets(organizationId: string, environment: ClaimedDelivery['environment']): Promise<string[]> {
    const key = `${organizationId}:${environment}`;
    const cached = secrets.get(key);
    if (cached !== undefined && Date.now() - cached.at < SECRET_CACHE_MS) return cached.values;
    const values = (await findActiveSecretCiphertexts(pool, organizationId, environment)).map((c) => cipher.decrypt(c));
    secrets.set(key, { at: Date.now(), values });
    return values;
  }

  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    const startedAt = new Date();
    if (delivery.attempts === 1) webhookDelay.observe((startedAt.getTime() - delivery.event_created_at.getTime()) / 1000);
    // The access token and update_url are stored sealed, not in the body (src/events/access-token-slot.ts): they go back in here.
    const filled = deliveredBody(cipher, delivery.payload, delivery);
    const { accessToken, updateUrl } = filled;
    const body = JSON.stringify(filled.body);
    const signingSecrets = await activeSecrets(delivery.organization_id, delivery.environment);
    const { url } = delivery;
    const sent =
      url === null
        ? {
            kind: 'refused' as const,
            statusCode: null,
            error: 'no webhook URL is configured for this environment any more',
            excerpt: null,
            durationMs: 0,
          }
        : // A child of the span the event was emitted in (its sync, write or request), so the attempt is in that trace.
          await inSpan(
            'webhook delivery attempt',
            {
              kind: SpanKind.CLIENT,
              attributes: deliverySpanAttributes(delivery),
              ...(delivery.trace_context === null ? {} : { parent: delivery.trace_context }),
            },
            () =>
              send(url, body, {
                ...signatureHeaders(body, signingSecrets),
                'X-Service-Event-Id': delivery.event_id,
                'X-Service-Delivery-Id': delivery.id,
                'X-Service-Delivery-Attempt': String(delivery.attempts),
              }),
          );
    // The attempt log keeps the receiver's answer, which may echo the body: no secret of ours is stored with it.
    const secrets = [...(accessToken === null ? [] : [accessToken]), ...(updateUrl === null ? [] : [linkTokenIn(updateUrl)]), ...signingSecrets];
    const scrub = (text: string | null): string | null => (text === null ? null : scrubSecrets(text, secrets));
    const result = { ...sent, error: scrub(sent.error), excerpt: scrub(sent.excerpt) };
    webhookAttempts.inc({ result: result.kind });
    webhookLatency.observe(result.durationMs / 1000);
    const delivered = result.kind === 'success';
    const next = new Date(Date.now() + retryDelayMs(delivery.attempts, scale));
    const retryAt = delivered || next >= delivery.deadline_at ? null : next;
    const settled = await settler.settle(
      {
        deliveryId: delivery.id,
        attempt: delivery.attempts,
        url: delivery.url ?? '',
        startedAt,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        error: result.error,
        excerpt: result.excerpt,
      },
      { delivered, retryAt },
    );
    if (settled && (delivered || retryAt === null)) webhookDeliveries.inc({ outcome: delivered ? 'delivered' : 'failed' });
    if (settled && delivered) webhookDeliveryLag.observe((Date.now() - delivery.event_created_at.getTime()) / 1000);
    // The URL is the customer's own and may hold a key of theirs in its query: only its host is logged.
    deliveryLog(delivery).info(
      {
        webhook: {
          event_id: delivery.event_id,
          code: payloadText(delivery.payload, 'code'),
          attempt: delivery.attempts,
          result: result.kind,
          status_code: result.statusCode,
          duration_ms: Math.round(result.durationMs),
          host: hostOf(delivery.url),
          outcome: delivered ? 'delivered' : retryAt === null ? 'failed' : 'retry',
          retry_at: retryAt?.toISOString() ?? null,
          settled,
        },
      },
      'webhook delivery attempt',
    );
  }

  function deliveryLog(delivery: ClaimedDelivery): typeof services.log {
    return withIds(services.log, {
      organization_id: delivery.organization_id,
      connection_id: payloadText(delivery.payload, 'connection_id'),
      delivery_id: delivery.id,
    });
  }

  function start(delivery: ClaimedDelivery): void {
    const tracked = deliver(delivery)
      .catch((error: unknown) => {
        deliveryLog(delivery).error({ err: error }, 'webhook delivery attempt could not be made or settled; its lease brings it back');
      })
      .finally(() => {
        inFlight.delete(tracked);
        shares.finished(delivery);
        wake();
      });
    inFlight.add(tracked);
  }

  async function listen(): Promise<void> {
    try {
      listener = await listenOn(pool, EVENTS_CHANNEL, wake);
    } catch {
      // Polling alone still delivers; the next loop tries to listen again.
    }
  }

  async function loop(): Promise<void> {
    let lastExpiry = 0;
    let unreachableSince: number | null = null;
    while (!stopped()) {
      if (!(listener?.alive ?? false)) await listen();
      // More may be due when the last claim came back full.
      let moreDue = false;
      try {
        if (Date.now() - lastExpiry > pollMs) {
          lastExpiry = Date.now();
          await expireDeliveries(pool, windowSeconds);
        }
        // Deliveries waiting for their own endpoint's share do not stop others from being claimed.
        const ready = shares.ready(queued);
        const held = inFlight.size + ready;
        if (ready <= concurrency / 2 && held < 2 * concurrency) {
          const want = Math.min(100, 2 * concurrency - held);
          const claimed = await claimDueDeliveries(pool, {
            limit: want,
            perEndpoint: shares.perClaim,
            held: shares.allowances(),
            leaseSeconds,
            windowSeconds,
          });
          shares.claimed(claimed);
          queued.push(...claimed);
          // A shorter claim can also mean endpoints at their share: the attempt that frees one wakes the loop.
          moreDue = claimed.length === want;
        }
        if (unreachableSince !== null) services.log.info('webhook dispatcher reaches the database again');
        unreachableSince = null;
      } catch (error) {
        // The database is unreachable for a moment: wait a poll and try again (one line per outage, not per poll).
        if (unreachableSince === null) services.log.warn({ err: error }, 'webhook dispatcher cannot claim deliveries; retrying every poll');
        unreachableSince ??= Date.now();
      }
      // Stopping: what was just claimed is handed back by stop(), not started.
      while (!stopped() && inFlight.size < concurrency) {
        const next = shares.startNext(queued);
        if (next === undefined) break;
        start(next);
      }
      if (moreDue && shares.ready(queued) <= concurrency / 2) continue;
      if (woken) {
        woken = false;
        continue;
      }
      const waited = new Promise<void>((resolve) => {
        resolveWait = resolve;
      });
      const abort = new AbortController();
      await Promise.race([waited, sleep(pollMs, undefined, { signal: abort.signal }).catch(() => undefined)]);
      abort.abort();
      woken = false;
    }
  }

  const running$ = loop();
  return {
    async stop() {
      stopping.abort();
      wake();
      await running$;
      // Claimed but never attempted: due again at once for another worker instead of after their lease.
      const unstarted = queued.splice(0);
      shares.released(unstarted);
      await releaseDeliveries(pool, unstarted).catch(() => undefined);
      await Promise.all(inFlight);
      sender.close();
      await listener?.close();
      listener = null;
    },
  };
}
