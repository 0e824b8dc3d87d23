/**
 * A signed test event sent at once to an environment's webhook URL, for the dashboard's "Send a test event". The
 * spec has no test event type, so this is the service's own (`type` and `code` WEBHOOK_TEST) and it is not an event:
 * it is not stored, not in the delivery log, not retried and never reaches GET /events. It goes through the same
 * sender (address guard, timeout, no redirects) and signature headers as a real delivery, so a receiver that
 * verifies and answers it 2xx will accept real deliveries too.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/pool.ts';
import type { Cipher } from '../crypto/secrets.ts';
import { scrubSecrets } from '../crypto/scrub.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { findActiveSecretCiphertexts } from '../sql/active-secrets.ts';
import { listWebhookEndpoints } from '../sql/webhook-admin.ts';
import type { Environment } from '../tenants/types.ts';
import { createSender } from './sender.ts';
import { signatureHeaders } from './signature.ts';

export const TEST_EVENT_CODE = 'WEBHOOK_TEST';

export interface TestDeliveryOutcome {
  event_id: string;
  url: string;
  delivered: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export async function sendTestWebhook(
  services: { pool: Queryable; cipher: Cipher; config: Pick<Config, 'webhookAllowPrivate' | 'webhookTimeoutMs'> },
  organizationId: string,
  environment: Environment,
): Promise<TestDeliveryOutcome> {
  const endpoint = (await listWebhookEndpoints(services.pool, organizationId)).find((e) => e.environment === environment);
  if (endpoint === undefined) {
    throw new ServiceError('VALIDATION_ERROR', `The ${environment} environment has no webhook URL: set one first, then send a test event.`, {
      source: 'service',
    });
  }
  const secrets = (await findActiveSecretCiphertexts(services.pool, organizationId, environment)).map((c) => services.cipher.decrypt(c));
  const eventId = randomUUID();
  const body = JSON.stringify({
    id: eventId,
    type: TEST_EVENT_CODE,
    code: TEST_EVENT_CODE,
    environment,
    created_at: new Date().toISOString(),
    message: 'A test event sent from the Ledgerport dashboard: verify its signature and answer 2xx. It is not stored and not retried.',
  });
  const sender = createSender({ allowPrivate: services.config.webhookAllowPrivate, timeoutMs: services.config.webhookTimeoutMs });
  try {
    const sent = await sender.send(endpoint.url, body, {
      ...signatureHeaders(body, secrets),
      'X-Service-Event-Id': eventId,
      'X-Service-Delivery-Id': eventId,
      'X-Service-Delivery-Attempt': '1',
    });
    const scrub = (text: string | null): string | null => (text === null ? null : scrubSecrets(text, secrets));
    return {
      event_id: eventId,
      url: endpoint.url,
      delivered: sent.kind === 'success',
      status_code: sent.statusCode,
      duration_ms: sent.durationMs,
      error: scrub(sent.error),
      response_excerpt: scrub(sent.excerpt),
    };
  } finally {
    sender.close();
  }
}
