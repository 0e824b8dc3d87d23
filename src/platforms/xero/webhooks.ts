/**
 * Xero's webhooks (developer.xero.com/documentation/guides/webhooks): a POST signed in x-xero-signature (base64
 * HMAC-SHA256 of the raw body under the app's webhook key) with `{events: [{resourceId, eventCategory, eventType,
 * tenantId, tenantType, …}], firstEventSequence, lastEventSequence, entropy}`; the "intent to receive" check sends no
 * events and wants 200 for a good signature and 401 for a bad one, within 5 seconds. An Invoice is a sales invoice or
 * a bill (ACCREC, ACCPAY), a Contact a customer or a supplier, a CreditNote either side's credit: the event does not
 * say which, so both types are read. Subscription events (the app's own billing) change no books.
 */
import type { InboundChange, InboundWebhooks } from '../connector.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import { signatureMatches } from '../webhook-signature.ts';
import { isRecord } from '../json.ts';

const CATEGORY_TYPES: Readonly<Record<string, readonly UnifiedObjectType[]>> = {
  INVOICE: ['invoice', 'bill'],
  CONTACT: ['customer', 'vendor'],
  CREDITNOTE: ['invoice_credit_memo', 'bill_credit_memo'],
  SUBSCRIPTION: [],
};

export const xeroWebhooks: InboundWebhooks = {
  verify: (rawBody, headers, key) => signatureMatches(rawBody, key, headers['x-xero-signature']),
  changes(body) {
    if (!isRecord(body) || !Array.isArray(body.events)) return null;
    const changes: InboundChange[] = [];
    for (const event of body.events) {
      if (!isRecord(event) || typeof event.tenantId !== 'string' || typeof event.eventCategory !== 'string') return null;
      const types = CATEGORY_TYPES[event.eventCategory];
      // A category Xero adds later is read as nothing rather than refused: Xero would retry a refusal for days.
      if (types === undefined) continue;
      const platformId = typeof event.resourceId === 'string' ? event.resourceId : null;
      for (const type of types) changes.push({ account: event.tenantId, type, platformId });
    }
    return changes;
  },
  acknowledgeWithinMs: 5_000,
  // developer.xero.com/documentation/guides/webhooks/configuring-your-server: "There is no body in the response".
  answersWithoutBody: true,
};
