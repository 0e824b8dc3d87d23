-- The platforms' own webhooks (Xero, QuickBooks Online): the key each signs its notifications with, registered by the
-- operator on the organisation's OAuth app (sealed like the client secret); every verified notification recorded as
-- received, with the connections it named and the sync runs it asked for, keyed by the SHA-256 of its body so that a
-- replay of the same notification changes nothing; and syncs they trigger, told apart from the others (docs/sync.md,
-- "Platform webhooks").
ALTER TABLE oauth_apps ADD COLUMN webhook_key_ciphertext bytea;

CREATE TABLE platform_webhook_receipts (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  environment      text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  platform         text NOT NULL,
  received_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  body             jsonb NOT NULL,
  body_sha256      bytea NOT NULL,
  changes          integer NOT NULL,
  sync_run_ids     uuid[] NOT NULL DEFAULT '{}',
  request_id       text
);
-- A notification is taken once: the same bytes again within the seven days receipts are kept is a replay.
CREATE UNIQUE INDEX platform_webhook_receipts_body_idx ON platform_webhook_receipts (organization_id, environment, platform, body_sha256);
-- Maintenance deletes receipts after seven days, oldest first.
CREATE INDEX platform_webhook_receipts_received_idx ON platform_webhook_receipts (received_at);
CREATE INDEX platform_webhook_receipts_org_idx ON platform_webhook_receipts (organization_id, received_at DESC);

ALTER TABLE sync_runs DROP CONSTRAINT sync_runs_trigger_check;
ALTER TABLE sync_runs ADD CONSTRAINT sync_runs_trigger_check
  CHECK (trigger IN ('link', 'schedule', 'manual', 'api', 'write', 'platform_webhook'));
