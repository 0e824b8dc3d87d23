/**
 * Webhooks as Xero sends them (developer.xero.com/documentation/guides/webhooks): `{events, firstEventSequence,
 * lastEventSequence, entropy}`, signed in x-xero-signature with the base64 HMAC-SHA256 of the exact bytes under the
 * app's webhook key. An intent-to-receive check is the same with no events.
 */
import { createHmac, randomBytes } from 'node:crypto';

export interface XeroChange {
  tenantId: string;
  category: 'INVOICE' | 'CONTACT' | 'CREDITNOTE' | 'SUBSCRIPTION';
  resourceId: string;
  eventType: 'CREATE' | 'UPDATE';
}

const RESOURCES: Readonly<Record<XeroChange['category'], string>> = {
  INVOICE: 'Invoices',
  CONTACT: 'Contacts',
  CREDITNOTE: 'CreditNotes',
  SUBSCRIPTION: 'Subscriptions',
};

let sequence = 0;

export function xeroWebhook(changes: readonly XeroChange[], webhookKey: string): { body: string; headers: Record<string, string> } {
  const first = sequence + 1;
  sequence += changes.length;
  const body = JSON.stringify({
    events: changes.map((change) => ({
      resourceUrl: `https://api.xero.com/api.xro/2.0/${RESOURCES[change.category]}/${change.resourceId}`,
      resourceId: change.resourceId,
      eventDateUtc: new Date().toISOString().slice(0, 23),
      eventType: change.eventType,
      eventCategory: change.category,
      tenantId: change.tenantId,
      tenantType: 'ORGANISATION',
    })),
    firstEventSequence: changes.length === 0 ? 0 : first,
    lastEventSequence: changes.length === 0 ? 0 : sequence,
    entropy: randomBytes(10).toString('hex').toUpperCase(),
  });
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-xero-signature': createHmac('sha256', webhookKey).update(body).digest('base64') },
  };
}
