/**
 * QuickBooks Online's webhooks (developer.intuit.com, "Webhooks"): a POST signed in intuit-signature (base64
 * HMAC-SHA256 of the raw body under the app's verifier token) with `{eventNotifications: [{realmId, dataChangeEvent:
 * {entities: [{name, id, operation, lastUpdated}]}}]}`, to be answered 200 within 3 seconds. An entity name is the one
 * queries use (ENTITIES); one we do not read changes nothing we store.
 */
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { InboundChange, InboundWebhooks } from '../connector.ts';
import { signatureMatches } from '../webhook-signature.ts';
import { ENTITIES } from './objects.ts';

const TYPES_OF_ENTITY = new Map<string, UnifiedObjectType[]>();
for (const spec of ENTITIES) TYPES_OF_ENTITY.set(spec.entity, [...(TYPES_OF_ENTITY.get(spec.entity) ?? []), spec.type]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const quickbooksWebhooks: InboundWebhooks = {
  verify: (rawBody, headers, key) => signatureMatches(rawBody, key, headers['intuit-signature']),
  changes(body) {
    if (!isRecord(body) || !Array.isArray(body.eventNotifications)) return null;
    const changes: InboundChange[] = [];
    for (const notification of body.eventNotifications) {
      if (!isRecord(notification) || typeof notification.realmId !== 'string') return null;
      const event = notification.dataChangeEvent;
      if (!isRecord(event) || !Array.isArray(event.entities)) return null;
      for (const changed of event.entities) {
        if (!isRecord(changed) || typeof changed.name !== 'string') return null;
        const platformId = typeof changed.id === 'string' ? changed.id : null;
        for (const type of TYPES_OF_ENTITY.get(changed.name) ?? []) changes.push({ account: notification.realmId, type, platformId });
      }
    }
    return changes;
  },
  acknowledgeWithinMs: 3_000,
};
