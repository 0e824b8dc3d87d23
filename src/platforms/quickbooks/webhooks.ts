/**
 * QuickBooks Online's webhooks (developer.intuit.com, "Webhooks"): a POST signed in intuit-signature (base64
 * HMAC-SHA256 of the raw body under the app's verifier token), to be answered 200 within 3 seconds, in either of
 * Intuit's two formats: the earlier `{eventNotifications: [{realmId, dataChangeEvent: {entities: [{name, id,
 * operation, lastUpdated}]}}]}`, and the CloudEvents one Intuit moved to in 2025-26 (its SDKs read both): a JSON array
 * of `{specversion: "1.0", id, source, type: "qbo.<entity>.<operation>.v1", time, intuitentityid, intuitaccountid,
 * data}`. An entity is named as queries name it (ENTITIES), lower-cased in a CloudEvents type; one we do not read
 * changes nothing we store.
 */
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { InboundChange, InboundWebhooks } from '../connector.ts';
import { signatureMatches } from '../webhook-signature.ts';
import { ENTITIES } from './objects.ts';
import { isRecord } from '../json.ts';

/** Unified types of an entity name in any case (the earlier format says "BillPayment", a CloudEvents type "billpayment"). */
const typesOf = (entity: string): UnifiedObjectType[] =>
  ENTITIES.filter((spec) => spec.entity.toLowerCase() === entity.toLowerCase()).map((spec) => spec.type);

const CLOUD_EVENT_TYPE = /^qbo\.([a-z]+)\.([a-z]+)\.v\d+$/;

export const quickbooksWebhooks: InboundWebhooks = {
  verify: (rawBody, headers, key) => signatureMatches(rawBody, key, headers['intuit-signature']),
  changes(body) {
    return Array.isArray(body) ? cloudEventChanges(body) : notificationChanges(body);
  },
  acknowledgeWithinMs: 3_000,
};

/** The CloudEvents format: one event per changed record. */
function cloudEventChanges(events: readonly unknown[]): InboundChange[] | null {
  const changes: InboundChange[] = [];
  for (const event of events) {
    if (!isRecord(event) || event.specversion !== '1.0' || typeof event.type !== 'string' || typeof event.intuitaccountid !== 'string') return null;
    const entity = CLOUD_EVENT_TYPE.exec(event.type)?.[1];
    if (entity === undefined) return null;
    const platformId = typeof event.intuitentityid === 'string' ? event.intuitentityid : null;
    for (const type of typesOf(entity)) changes.push({ account: event.intuitaccountid, type, platformId });
  }
  return changes;
}

/** The earlier format: notifications per realm, each with the entities that changed. */
function notificationChanges(body: unknown): InboundChange[] | null {
  if (!isRecord(body) || !Array.isArray(body.eventNotifications)) return null;
  const changes: InboundChange[] = [];
  for (const notification of body.eventNotifications) {
    if (!isRecord(notification) || typeof notification.realmId !== 'string') return null;
    const event = notification.dataChangeEvent;
    if (!isRecord(event) || !Array.isArray(event.entities)) return null;
    for (const changed of event.entities) {
      if (!isRecord(changed) || typeof changed.name !== 'string') return null;
      const platformId = typeof changed.id === 'string' ? changed.id : null;
      for (const type of typesOf(changed.name)) changes.push({ account: notification.realmId, type, platformId });
    }
  }
  return changes;
}
