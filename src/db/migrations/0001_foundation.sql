-- Tenants, API credentials, service settings, rate limiting and idempotency.

CREATE TABLE organizations (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- One client_id per organisation and environment; the environment of a request follows from it.
CREATE TABLE api_credentials (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  environment      text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  client_id        text NOT NULL UNIQUE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, environment)
);

-- Secrets: SHA-256 for constant-time verification, AES-256-GCM ciphertext because
-- webhooks are signed with the secret itself. expires_at is set on rotation (grace period).
CREATE TABLE api_secrets (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  credential_id      uuid NOT NULL REFERENCES api_credentials (id) ON DELETE CASCADE,
  secret_sha256      bytea NOT NULL,
  secret_ciphertext  bytea NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at         timestamptz
);
CREATE INDEX api_secrets_credential_idx ON api_secrets (credential_id, created_at DESC);

CREATE TABLE service_settings (
  key         text PRIMARY KEY,
  value       jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Fixed window anchored at the first request after the previous window ended.
-- UNLOGGED: losing counters in a crash only forgives a few requests.
CREATE UNLOGGED TABLE rate_limit_windows (
  bucket        text PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  hits          integer NOT NULL
);

CREATE TABLE idempotency_keys (
  organization_id   uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  environment       text NOT NULL,
  key               text NOT NULL,
  request_method    text NOT NULL,
  request_path      text NOT NULL,
  request_sha256    bytea NOT NULL,
  state             text NOT NULL CHECK (state IN ('in_progress', 'completed')),
  -- A crashed first request frees its key for a retry after this time.
  locked_until      timestamptz,
  response_status   integer,
  response_headers  jsonb,
  response_body     text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  expires_at        timestamptz NOT NULL,
  PRIMARY KEY (organization_id, environment, key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);
