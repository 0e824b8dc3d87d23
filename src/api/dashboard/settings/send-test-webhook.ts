import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser, sessionEnvironment } from '../../../http/session-auth.ts';
import { Nullable } from '../../../model/shared.ts';
import { sendTestWebhook } from '../../../webhooks/test-delivery.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/dashboard/api/webhooks/test',
  auth: 'session',
  tags: ['Dashboard'],
  summary: "Send a signed WEBHOOK_TEST event to the session environment's webhook URL now and answer what the receiver did.",
  description:
    'Signed like every delivery (X-Service-Signature(s) with the active client secrets). Not an event: not stored, not in ' +
    'the delivery log, not retried. 400 VALIDATION_ERROR when the environment has no webhook URL.',
  body: Type.Object({}, { additionalProperties: false, description: "Empty: the environment is the session's." }),
  success: {
    status: 200,
    schema: Type.Object({
      test: Type.Object({
        event_id: Type.String({ format: 'uuid' }),
        url: Type.String(),
        delivered: Type.Boolean({ description: 'The receiver answered 2xx in time.' }),
        status_code: Nullable(Type.Integer(), 'null: no answer (timeout, refused, network error).'),
        duration_ms: Type.Integer({ minimum: 0 }),
        error: Nullable(Type.String()),
        response_excerpt: Nullable(Type.String(), "The first KiB of the receiver's answer, secrets masked."),
      }),
    }),
  },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON'],
});

export default defineEndpoint(contract, async (request) => {
  const user = requireDashboardUser(request);
  return { test: await sendTestWebhook(request.server.services, user.organizationId, sessionEnvironment(request)) };
});
