import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../../model/shared.ts';
import { DELIVERY_STATUSES } from '../../../sql/webhook-admin.ts';
import { EnvironmentSchema } from '../organizations/schemas.ts';

export const WebhookSchema = Type.Object({
  environment: EnvironmentSchema,
  url: Type.String({ description: "Where the environment's events are POSTed." }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const DeliveryStatusSchema = StringEnum(
  DELIVERY_STATUSES,
  'pending (waiting for an attempt), delivering (an attempt is running), delivered (2xx received) or failed (the window ended without a 2xx).',
);

export const DeliverySchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  event_id: Type.String({ format: 'uuid', description: 'The event delivered (also the id in the webhook body).' }),
  environment: EnvironmentSchema,
  connection_id: Nullable(Type.String({ format: 'uuid' }), 'The connection the event is about, if any.'),
  code: Type.String({ description: 'Event code, e.g. BILL_CREATED.' }),
  status: DeliveryStatusSchema,
  attempts: Type.Integer({ minimum: 0, description: 'Attempts made so far.' }),
  next_attempt_at: Type.String({ format: 'date-time', description: 'When the next attempt is due (while pending).' }),
  deadline_at: Type.String({ format: 'date-time', description: 'No attempt starts after this: creation plus the 15-minute window.' }),
  last_status_code: Nullable(Type.Integer(), 'HTTP status of the last attempt; null when it got no answer.'),
  last_error: Nullable(Type.String(), 'Why the last attempt failed.'),
  replay_of: Nullable(Type.String({ format: 'uuid' }), 'The delivery this one re-sends (retry or replay).'),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Nullable(Type.String({ format: 'date-time' }), 'When it was delivered or given up.'),
});

export const AttemptSchema = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  url: Type.String(),
  started_at: Type.String({ format: 'date-time' }),
  duration_ms: Type.Integer({ minimum: 0 }),
  status_code: Nullable(Type.Integer(), 'HTTP status received; null on timeout or network error.'),
  error: Nullable(Type.String()),
  response_excerpt: Nullable(Type.String(), "The first bytes of the receiver's answer."),
});

export const DeliveryParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Organisation id' }),
  deliveryId: Type.String({ format: 'uuid', description: 'Delivery id' }),
});
