/**
 * Webhooks as Intuit sends them (developer.intuit.com, "Webhooks"; Intuit's SDKs read both formats): the body in the
 * CloudEvents format (a JSON array of `qbo.<entity>.<operation>.v1` events) or the earlier one (`eventNotifications`),
 * signed in intuit-signature with the base64 HMAC-SHA256 of the exact bytes under the app's verifier token.
 */
import { createHmac, randomUUID } from 'node:crypto';

export interface QboChange {
  realmId: string;
  entity: string;
  id: string;
  operation: 'Create' | 'Update' | 'Delete' | 'Void' | 'Merge' | 'Emailed';
}

/** The past-tense action of a CloudEvents type. */
const ACTIONS: Readonly<Record<QboChange['operation'], string>> = {
  Create: 'created',
  Update: 'updated',
  Delete: 'deleted',
  Void: 'voided',
  Merge: 'merged',
  Emailed: 'emailed',
};

export function intuitWebhook(
  changes: readonly QboChange[],
  verifierToken: string,
  format: 'cloudevents' | 'legacy' = 'cloudevents',
): { body: string; headers: Record<string, string> } {
  const now = new Date().toISOString();
  const body = JSON.stringify(
    format === 'cloudevents'
      ? changes.map((change) => ({
          specversion: '1.0',
          id: randomUUID(),
          source: `intuit.${change.realmId}`,
          type: `qbo.${change.entity.toLowerCase()}.${ACTIONS[change.operation]}.v1`,
          datacontenttype: 'application/json',
          time: now,
          intuitentityid: change.id,
          intuitaccountid: change.realmId,
          data: {},
        }))
      : {
          eventNotifications: [...new Set(changes.map((c) => c.realmId))].map((realmId) => ({
            realmId,
            dataChangeEvent: {
              entities: changes
                .filter((c) => c.realmId === realmId)
                .map((c) => ({ name: c.entity, id: c.id, operation: c.operation, lastUpdated: now })),
            },
          })),
        },
  );
  return {
    body,
    headers: { 'content-type': 'application/json', 'intuit-signature': createHmac('sha256', verifierToken).update(body).digest('base64') },
  };
}
