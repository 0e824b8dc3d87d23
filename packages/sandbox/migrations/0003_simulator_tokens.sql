-- The OAuth side of the platform simulators (packages/sandbox/src/simulators): the codes, access tokens and
-- refresh tokens each simulated platform issued, kept by SHA-256 only. In PostgreSQL, not in memory, so any process
-- of the service can check a token another one issued, and a code or refresh token is used once however many
-- processes race for it (one UPDATE ... WHERE used_at IS NULL wins). A link token opens one platform link that is
-- fetched without a bearer token (QuickBooks' presigned file links) until it expires.
CREATE TABLE IF NOT EXISTS sandbox_platform.simulator_tokens (
  token_sha256   text PRIMARY KEY,
  kind           text NOT NULL CHECK (kind IN ('code', 'access', 'refresh', 'link')),
  platform       text NOT NULL,
  account_key    text NOT NULL,
  client_id      text NOT NULL,
  -- Codes only: the redirect URI the consent page was asked for, which the code exchange must repeat.
  redirect_uri   text,
  scope          text NOT NULL DEFAULT '',
  expires_at     timestamptz NOT NULL,
  -- Codes and refresh tokens: when they were spent (each works once).
  used_at        timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now()
);
-- Housekeeping deletes what expired a day ago.
CREATE INDEX IF NOT EXISTS simulator_tokens_expiry_idx ON sandbox_platform.simulator_tokens (expires_at);
