import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { throttledAuthentication, tooManyFailures } from '../../http/auth-throttle.ts';
import type { AuthAttempt } from '../../ratelimit/auth-failures.ts';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { getConnector } from '../../platforms/index.ts';
import { isRecord } from '../../platforms/json.ts';
import { receivePlatformWebhook } from '../../sync/inbound-webhooks.ts';
import { EnvironmentSchema } from '../admin/organizations/schemas.ts';

/** The largest notification accepted (Xero and Intuit send a few kilobytes). */
export const PLATFORM_WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** The answers a platform wants without a body (Xero's 200 and 401): the summary or the refusal is in the log only. */
const BODILESS_ANSWERS = [200, 401] as const;
const BODILESS_STATUSES: ReadonlySet<number> = new Set(BODILESS_ANSWERS);

export const contract = defineContract({
  method: 'POST',
  url: '/platform-webhooks/:platform/:organization_id/:environment',
  auth: 'none',
  tags: ['Platform webhooks'],
  summary: "Receives a platform's own webhook (Xero, QuickBooks Online) for an organisation's OAuth app, and syncs what it says changed.",
  description:
    "Set this address in the platform's developer portal and the key it signs with as webhook_key on the organisation's OAuth app " +
    '(PUT /admin/organizations/:id/oauth_apps/:platform). The signature is checked on the raw body: 401 when it does not match or no key is ' +
    'registered. A verified notification is recorded and each connection to an account it names gets an incremental sync of the changed ' +
    'types at once; our own entity webhooks follow from that sync (docs/sync.md, "Platform webhooks"). ' +
    'For Xero, whose documentation says "There is no body in the response", the 200 and the 401 are sent with an empty body ' +
    '(the summary below is logged instead).',
  params: Type.Object({
    platform: Type.String({ minLength: 1, maxLength: 100, description: 'Platform id, e.g. XERO.' }),
    organization_id: Type.String({ format: 'uuid', description: 'Organisation whose OAuth app the platform sends for.' }),
    environment: EnvironmentSchema,
  }),
  // Any JSON: the bytes are checked against the signature before anything reads them (their scope's parser keeps them raw).
  body: Type.Unknown({
    description:
      "The platform's notification as it sends it: Xero's {events, firstEventSequence, lastEventSequence, entropy}; Intuit's {eventNotifications}.",
  }),
  consumes: ['application/json'],
  success: {
    status: 200,
    schema: Type.Object({
      changes: Type.Integer({
        description: 'Changes the notification named (an object once per type it may be: a Xero invoice is an invoice or a bill).',
      }),
      sync_runs: Type.Integer({ description: 'Connections whose incremental sync was queued or joined.' }),
      revoked: Type.Integer({ description: 'Connections moved to needs_reauth because the notification says the business revoked our access.' }),
      duplicate: Type.Boolean({ description: 'True when the same notification was received before (a retry or a replay): nothing was done again.' }),
    }),
  },
  errors: ['INVALID_CREDENTIALS', 'ROUTE_NOT_FOUND', 'MALFORMED_JSON', 'VALIDATION_ERROR', 'RATE_LIMIT_EXCEEDED'],
  answersWithoutBody: { statuses: BODILESS_ANSWERS, when: 'the platform wants no body in the answer (InboundWebhooks.answersWithoutBody: Xero)' },
});

/** What a forged post is counted against: its sender's address, and the organisation's app it claims to come for. */
function webhookAttempt(request: FastifyRequest): AuthAttempt {
  const params = request.params as Partial<Record<'platform' | 'organization_id' | 'environment', string>>;
  return {
    surface: 'webhook',
    address: request.ip,
    target: `webhook:${params.platform ?? ''}:${params.organization_id ?? ''}:${params.environment ?? ''}`,
  };
}

/**
 * Issue 32: forged posts were never throttled, and a flood of 900 KB ones from one address slowed another
 * organisation's reads 20×. Refused signatures are counted like failed logins (AUTH_FAILURE_*); an address over its
 * limit is answered 429 before a byte of its body is read, and its socket closed so the body is not read either. A
 * platform's own senders never share an address with a forger, and a platform whose posts fail their signature gets
 * nothing but refusals anyway. A blocked target (an organisation's app) still has each signature checked, so forgers
 * spread over many addresses cannot keep the platform's genuine notifications out.
 *
 * The 429 is held for AUTH_FAILURE_WEBHOOK_DELAY_MS (1 s) first, its body unread: Node stops reading a socket whose
 * request nobody reads once a few kilobytes wait, so the sender's own writes stall and each of its connections sends
 * one post a second instead of hundreds. Answered at once, a blocked flood still cost this host the network work of
 * every post it began (bench/tenant-isolation.ts, docs/performance.md). A held socket is still counted by the
 * connection caps, and as one whose request has not arrived it is the first cut when they are full.
 */
export function refuseBlockedWebhookSenders(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
  const blocked = request.server.authThrottle.blocked({ ...webhookAttempt(request), target: null });
  if (blocked === null) {
    done();
    return;
  }
  void reply.header('Connection', 'close');
  request.server.heldRefusals.hold(request.server.services.config.authFailures.webhookRefusalDelayMs, () => {
    done(tooManyFailures(blocked, 'webhook'));
  });
}

export default defineEndpoint(contract, async (request) => {
  const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const outcome = await throttledAuthentication(
    request.server.authThrottle,
    request.log,
    { ...webhookAttempt(request), presented: true, refusal: 'INVALID_CREDENTIALS' },
    () =>
      receivePlatformWebhook(request.server.services, {
        platform: request.params.platform,
        organizationId: request.params.organization_id,
        environment: request.params.environment,
        rawBody,
        headers: request.headers,
        requestId: request.id,
      }),
  );
  return { changes: outcome.changes, sync_runs: outcome.syncRuns, revoked: outcome.revoked, duplicate: outcome.duplicate };
});

/**
 * onSend hook of the platform webhooks' scope: empties the 200 and the 401 of a platform that wants no body in the
 * response (InboundWebhooks.answersWithoutBody), leaving every other answer as it is.
 */
export function emptyAnswerWhereWanted(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  const platform = isRecord(request.params) && typeof request.params.platform === 'string' ? request.params.platform : '';
  if (!BODILESS_STATUSES.has(reply.statusCode) || getConnector(platform)?.webhooks?.answersWithoutBody !== true) {
    done(null, payload);
    return;
  }
  void reply.removeHeader('content-type');
  done(null, '');
}
