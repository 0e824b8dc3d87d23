/**
 * A platform's own webhook, received (POST /platform-webhooks/:platform/:organization_id/:environment): verified
 * with the webhook key the operator registered on the organisation's OAuth app, recorded, and turned into an
 * incremental sync, at once, of the changed types (and the types whose stored fields they change, as after a write)
 * of each connection to an account it names. The platform's deadline (Xero 5 s, Intuit 3 s) is met because nothing
 * here calls the platform: the sync runs in a worker, and the change reaches our own webhooks from there.
 */
import { createHash } from 'node:crypto';
import type { CoreServices } from '../core-services.ts';
import { withTransaction } from '../db/pool.ts';
import { ServiceError } from '../errors/catalogue.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import type { InboundChange } from '../platforms/connector.ts';
import { getConnector } from '../platforms/index.ts';
import { markNeedsReauth } from '../connections/health.ts';
import {
  claimWebhookReceipt,
  connectionsOfAccounts,
  connectionsToRevoke,
  setWebhookReceiptRuns,
  webhookKeyCiphertext,
} from '../sql/platform-webhooks.ts';
import type { Environment } from '../tenants/types.ts';
import { followUpTypes } from './follow-up-scope.ts';
import { requestTargetedSyncIn } from './requests.ts';

export interface ReceivedPlatformWebhook {
  platform: string;
  organizationId: string;
  environment: Environment;
  rawBody: Buffer;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  requestId: string | null;
}

export interface PlatformWebhookOutcome {
  /** Changes the notification named (each object once per type it may be). */
  changes: number;
  /** Sync runs queued or joined, one per connection named. */
  syncRuns: number;
  /** Connections the notification moved to needs_reauth (the business revoked our access: uninstall, deauthorisation). */
  revoked: number;
  /** The same notification was received before (a platform's retry after a lost answer, or a replay): nothing was done again. */
  duplicate: boolean;
}

export async function receivePlatformWebhook(
  services: Pick<CoreServices, 'pool' | 'cipher' | 'jobs' | 'log' | 'config'>,
  received: ReceivedPlatformWebhook,
): Promise<PlatformWebhookOutcome> {
  const log = services.log.child({
    platform: received.platform,
    organization_id: received.organizationId,
    environment: received.environment,
    request_id: received.requestId,
  });
  const refused = (reason: string, message: string): ServiceError => {
    // A forged or misconfigured sender is worth an operator's look; the answer tells the sender no more than 401.
    log.warn({ reason }, 'platform webhook refused');
    return new ServiceError('INVALID_CREDENTIALS', message, { source: 'service' });
  };
  const receiver = getConnector(received.platform)?.webhooks;
  if (receiver === undefined) {
    throw new ServiceError('ROUTE_NOT_FOUND', `${received.platform} sends no webhooks this service receives.`, {
      source: 'service',
      field: 'platform',
      location: 'params',
    });
  }
  const sealed = await webhookKeyCiphertext(services.pool, received.organizationId, received.environment, received.platform);
  // Without a key nothing can be verified: the platform is told 401, as for a wrong signature (Xero's intent-to-receive check expects it).
  if (sealed === null) {
    throw refused(
      'no_key',
      `No webhook key is registered on this organisation's ${received.platform} OAuth app for ${received.environment}: set webhook_key with PUT /admin/organizations/:id/oauth_apps/${received.platform}.`,
    );
  }
  if (!receiver.verify(received.rawBody, received.headers, services.cipher.decrypt(sealed))) {
    throw refused('bad_signature', 'The webhook signature does not match the body under the registered webhook key.');
  }
  let body: unknown;
  try {
    body = parseStorable(received.rawBody.toString('utf8'));
  } catch {
    throw new ServiceError('MALFORMED_JSON', 'The webhook body is not JSON.', { source: 'service', location: 'body' });
  }
  const changes = receiver.changes(body, received.headers);
  const revocations = receiver.revocations?.(body, received.headers) ?? [];
  if (changes === null)
    throw new ServiceError('VALIDATION_ERROR', `The body is not a ${received.platform} webhook notification.`, {
      source: 'service',
      location: 'body',
    });

  const byAccount = typesByAccount(changes);
  // The receipt and the runs it asks for commit together: a notification is either taken whole or not at all, and a
  // retry of one that was taken finds its receipt and changes nothing.
  const outcome = await withTransaction(services.pool, async (db): Promise<PlatformWebhookOutcome> => {
    const receiptId = await claimWebhookReceipt(db, {
      organizationId: received.organizationId,
      environment: received.environment,
      platform: received.platform,
      body,
      bodySha256: createHash('sha256').update(received.rawBody).digest(),
      changes: changes.length,
      requestId: received.requestId,
    });
    if (receiptId === null) return { changes: changes.length, syncRuns: 0, revoked: 0, duplicate: true };
    const revokedAccounts = revocations.map((r) => r.account);
    const revoked =
      revokedAccounts.length === 0
        ? []
        : await connectionsToRevoke(db, received.organizationId, received.environment, received.platform, revokedAccounts);
    for (const connection of revoked) {
      await markNeedsReauth(db, services.cipher, services.config.publicUrl, connection);
      const reason = revocations.find((r) => r.account === connection.storeUniqueId || r.account === connection.storeDomain)?.reason;
      log.warn({ connection_id: connection.id, reason }, 'platform webhook: the business revoked access; connection needs re-authentication');
    }
    const revokedIds = new Set(revoked.map((c) => c.id));
    const connections =
      byAccount.size === 0
        ? []
        : await connectionsOfAccounts(db, received.organizationId, received.environment, received.platform, [...byAccount.keys()]);
    const syncRunIds: string[] = [];
    for (const connection of connections) {
      // A revoked connection has nothing to read with: the changes it was told of are read after it is re-linked.
      if (revokedIds.has(connection.id)) continue;
      const types = byAccount.get(connection.account) ?? [];
      const runId = await requestTargetedSyncIn(db, services.jobs, connection.id, types, { trigger: 'platform_webhook', delaySeconds: 0 });
      if (runId !== null) syncRunIds.push(runId);
    }
    await setWebhookReceiptRuns(db, receiptId, syncRunIds);
    return { changes: changes.length, syncRuns: syncRunIds.length, revoked: revoked.length, duplicate: false };
  });
  log.info(
    { changes: outcome.changes, sync_runs: outcome.syncRuns, revoked: outcome.revoked, duplicate: outcome.duplicate },
    outcome.duplicate ? 'platform webhook received again: ignored' : 'platform webhook received',
  );
  return outcome;
}

/** U+FFFD, the replacement character: what stands in the receipt for a NUL the platform sent. */
const NUL_STAND_IN = '\uFFFD';
const hasNul = (text: string): boolean => text.includes('\u0000');
const withoutNul = (text: string): string => text.replaceAll('\u0000', NUL_STAND_IN);

/**
 * The notification as JSON PostgreSQL can hold: a NUL (`\u0000`, which text and jsonb refuse) in any string or name
 * becomes U+FFFD. Refusing it instead would have the platform retry for hours (and Shopify then drop the subscription),
 * for a notification that only names what changed: the sync reads the record itself from the platform. Only a body
 * whose text has the escape pays for the reviver (a raw NUL byte is not JSON at all: JSON.parse refuses it).
 */
export function parseStorable(text: string): unknown {
  if (!text.includes('\\u0000')) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'string') return withoutNul(value);
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.keys(value).some(hasNul)) return value;
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [withoutNul(name), inner]));
  });
}

/**
 * Per account, the types to read: first each changed type, then those whose stored fields it changes
 * (follow-up-scope.ts), so the run reads what the platform named first and its entity webhooks go out soonest.
 */
function typesByAccount(changes: readonly InboundChange[]): Map<string, UnifiedObjectType[]> {
  const named = new Map<string, Set<UnifiedObjectType>>();
  const touched = new Map<string, Set<UnifiedObjectType>>();
  const add = (map: Map<string, Set<UnifiedObjectType>>, account: string, types: readonly UnifiedObjectType[]): void => {
    const set = map.get(account) ?? new Set<UnifiedObjectType>();
    for (const type of types) set.add(type);
    map.set(account, set);
  };
  for (const change of changes) {
    add(named, change.account, [change.type]);
    add(touched, change.account, followUpTypes(change.type));
  }
  return new Map([...named].map(([account, types]) => [account, [...new Set([...types, ...(touched.get(account) ?? [])])]]));
}
