/**
 * Stripe's events, derived from the records' own times (SANDBOX keeps no event log): customer.created when a shopper
 * first ordered, charge.succeeded when an order was charged, charge.refunded when it was refunded, payout.created and
 * payout.paid when a payout was made and arrived. Each carries its object as it was then (a charge not yet refunded
 * in its charge.succeeded), as Stripe's do. Stripe keeps events 30 days: older ones are not listed.
 */
import type { Json } from './answers.ts';
import { stripeId } from './ids.ts';
import { renderCharge, renderPayout, unix } from './render.ts';
import type { StripeView } from './view.ts';

export const EVENTS_KEPT_SECONDS = 30 * 86_400;
/** The API version Stripe stamps on events: the one the stripe library we ship pins. */
export const API_VERSION = '2026-10-28.endive';

/** An event object as Stripe sends it: `object` as it was when the event happened. */
export function eventObject(id: string, type: string, created: number, object: Json): Json & { id: string; object: string; created: number } {
  return {
    id,
    object: 'event',
    api_version: API_VERSION,
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type,
  };
}

const event = (type: string, sandboxId: string, created: number, object: Json): Json =>
  eventObject(stripeId('event', `${type}|${sandboxId}`), type, created, object);

/** Every event of the last 30 days. */
export async function allEvents(view: StripeView): Promise<Json[]> {
  const events: Json[] = [];
  const { store, charges, payouts, shoppers } = await view.index();
  for (const parts of charges) {
    const at = unix(parts.charge.CreatedAt);
    events.push(event('charge.succeeded', parts.order.Id, at, renderCharge(parts, store, at)));
    if (parts.refund !== null) {
      const refundedAt = unix(parts.refund.CreatedAt);
      events.push(event('charge.refunded', parts.order.Id, refundedAt, renderCharge(parts, store, refundedAt)));
    }
  }
  for (const payout of payouts.values()) {
    const made = unix(payout.CreatedAt);
    events.push(event('payout.created', payout.Id, made, renderPayout(payout, made)));
    if (payout.Status === 'Paid' && unix(payout.UpdatedAt) <= view.nowSeconds()) {
      const paidAt = unix(payout.UpdatedAt);
      events.push(event('payout.paid', payout.Id, paidAt, renderPayout(payout, paidAt)));
    }
  }
  const customers = new Map((await view.customers()).map((c) => [c.id, c]));
  for (const shopper of shoppers) {
    const customer = customers.get(stripeId('customer', shopper.Id));
    if (customer !== undefined) events.push(event('customer.created', shopper.Id, unix(shopper.CreatedAt), customer));
  }
  const oldest = view.nowSeconds() - EVENTS_KEPT_SECONDS;
  return events.filter((e) => typeof e.created === 'number' && e.created >= oldest);
}

/** Stripe's `type` filter: an exact type or a wildcard (`charge.*`). */
export function typeMatches(type: string, wanted: readonly string[]): boolean {
  return wanted.some((w) => (w.endsWith('.*') ? type.startsWith(w.slice(0, -1)) : type === w));
}
