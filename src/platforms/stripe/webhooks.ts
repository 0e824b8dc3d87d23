/**
 * Stripe's webhooks (https://docs.stripe.com/webhooks). Verified with the endpoint's signing secret (whsec_…), set as
 * the OAuth app's webhook_key: the Stripe-Signature header's t=…,v1=… is the HMAC-SHA256 of `${t}.${rawBody}`,
 * compared in constant time by the library (stripe.webhooks.constructEvent), within Stripe's default tolerance
 * of 300 seconds; the library lets a timestamp from the future through, so one more than 300 s ahead is refused here.
 *
 * Connect endpoints receive the connected accounts' events with `account` set: that names the connection. An
 * account's own endpoint (an API-key connection) sends events without `account`, which name no connection here: those
 * connections are kept current by their incremental syncs (events API) instead.
 */
import Stripe from 'stripe';
import type { InboundChange, InboundHeaders, InboundRevocation, InboundWebhooks } from '../connector.ts';
import { idOf, isObject, text } from './mapping.ts';

export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';
/** Stripe's default tolerance (stripe-node DEFAULT_TOLERANCE), seconds. */
export const STRIPE_TOLERANCE_SECONDS = 300;

/** True when `header` signs `rawBody` under `secret` at a time within the tolerance of `nowSeconds`. */
export function verifyStripeSignature(
  rawBody: Buffer,
  header: string | string[] | undefined,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (typeof header !== 'string' || header === '' || secret === '') return false;
  const timestamp = /(?:^|,)t=(\d+)(?:,|$)/.exec(header)?.[1];
  if (timestamp === undefined || Number(timestamp) > nowSeconds + STRIPE_TOLERANCE_SECONDS) return false;
  try {
    // Throws on a signature that does not match or is older than the tolerance (receivedAt in milliseconds).
    Stripe.webhooks.constructEvent(rawBody, header, secret, STRIPE_TOLERANCE_SECONDS, undefined, nowSeconds * 1000);
    return true;
  } catch {
    return false;
  }
}

interface StripeEventShape {
  type: string;
  account: string | null;
  object: Record<string, unknown>;
}

function eventOf(body: unknown): StripeEventShape | null {
  if (!isObject(body) || body.object !== 'event' || typeof body.type !== 'string' || !isObject(body.data) || !isObject(body.data.object)) return null;
  return { type: body.type, account: text(body.account), object: body.data.object };
}

/** What an event type says changed, by unified type and platform id. */
export function changedBy(type: string, object: Record<string, unknown>): Omit<InboundChange, 'account'>[] {
  const id = idOf(object.id);
  if (type.startsWith('charge.dispute.'))
    return [
      { type: 'dispute', platformId: id },
      { type: 'order', platformId: idOf(object.charge) },
      { type: 'transaction', platformId: null },
    ];
  if (type.startsWith('charge.')) {
    const charge = object.object === 'charge' ? id : idOf(object.charge);
    return [
      { type: 'order', platformId: charge },
      { type: 'transaction', platformId: null },
    ];
  }
  if (type.startsWith('payout.'))
    return [
      { type: 'payout', platformId: id },
      { type: 'transaction', platformId: null },
    ];
  if (type.startsWith('customer.subscription.')) return [{ type: 'subscription', platformId: id }];
  if (type === 'customer.created' || type === 'customer.updated' || type === 'customer.deleted') {
    return [
      { type: 'commerce_customer', platformId: id },
      { type: 'customer', platformId: id },
    ];
  }
  if (type === 'balance.available') return [{ type: 'transaction', platformId: null }];
  if (type === 'account.updated') return [{ type: 'store', platformId: id }];
  return [];
}

export const stripeWebhooks: InboundWebhooks = {
  verify: (rawBody, headers, webhookKey) => verifyStripeSignature(rawBody, headers[STRIPE_SIGNATURE_HEADER], webhookKey),
  changes(body: unknown, _headers: InboundHeaders): InboundChange[] | null {
    const event = eventOf(body);
    if (event === null) return null;
    const account = event.account;
    if (account === null) return [];
    return changedBy(event.type, event.object).map((change) => ({ account, ...change }));
  },
  revocations(body: unknown, _headers: InboundHeaders): InboundRevocation[] {
    const event = eventOf(body);
    if (event?.type !== 'account.application.deauthorized' || event.account === null) return [];
    return [{ account: event.account, reason: 'Stripe: the account disconnected the application (account.application.deauthorized)' }];
  },
  // Stripe asks endpoints to answer 2xx at once, before any work; the receiver answers before any sync runs.
  acknowledgeWithinMs: 10_000,
};
