-- Connections, their access and link tokens, public tokens, sync runs and the durable event store.

CREATE TABLE connections (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id         uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  environment             text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  -- Null until the end user picks a platform in the link flow.
  platform                text,
  name                    text,
  status                  text NOT NULL DEFAULT 'not_ready'
                          CHECK (status IN ('active', 'unhealthy', 'not_ready', 'needs_reauth', 'disabled')),
  access_token_sha256     bytea NOT NULL UNIQUE,
  access_token_ciphertext bytea NOT NULL,
  -- Random token in the stable link_url, so the URL does not expose the connection id.
  link_token              text NOT NULL UNIQUE,
  store_unique_id         text,
  store_name              text,
  credentials_ciphertext  bytea,
  oauth_tokens_ciphertext bytea,
  sync_config             jsonb,
  scope                   text,
  marketplace             text,
  redirect_url            text,
  default_subsidiary_id   text,
  linked_at               timestamptz,
  ready_at                timestamptz,
  disable_error           text,
  disable_message         text,
  consecutive_failures    integer NOT NULL DEFAULT 0,
  created_at              timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at              timestamptz NOT NULL DEFAULT clock_timestamp()
);
-- Paged listing: creation order, then id; filters on status.
CREATE INDEX connections_tenant_order_idx ON connections (organization_id, environment, created_at, id);
CREATE INDEX connections_tenant_status_idx ON connections (organization_id, environment, status, created_at, id);
-- De-duplication: one connection per platform account per organisation and environment.
CREATE UNIQUE INDEX connections_store_unique_idx ON connections (organization_id, environment, platform, store_unique_id)
  WHERE store_unique_id IS NOT NULL;

-- Handed to the client's redirect_url after the link flow; exchanged once within 30 minutes.
CREATE TABLE public_tokens (
  token_sha256    bytea PRIMARY KEY,
  connection_id   uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz
);
CREATE INDEX public_tokens_connection_idx ON public_tokens (connection_id);

-- OAuth consent round-trips: state → connection, expires after 15 minutes.
CREATE TABLE oauth_states (
  state          text PRIMARY KEY,
  connection_id  uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  platform       text NOT NULL,
  redirect_url   text,
  pending_tokens_ciphertext bytea,
  created_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at     timestamptz NOT NULL
);

-- One row per sync of a connection; at most one running at a time (partial unique index).
CREATE TABLE sync_runs (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  connection_id   uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('initial', 'incremental', 'backfill')),
  trigger         text NOT NULL CHECK (trigger IN ('link', 'schedule', 'manual', 'api')),
  status          text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  request         jsonb NOT NULL DEFAULT '{}',
  error           text,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  started_at      timestamptz,
  finished_at     timestamptz
);
CREATE INDEX sync_runs_connection_idx ON sync_runs (connection_id, created_at DESC);
CREATE UNIQUE INDEX sync_runs_one_running_idx ON sync_runs (connection_id) WHERE status = 'running';

-- The durable event store (outbox): every webhook-worthy event is written here in the
-- same transaction as the change it announces; the webhook worker delivers from it.
CREATE TABLE events (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  environment      text NOT NULL,
  connection_id    uuid,
  type             text NOT NULL,
  code             text NOT NULL,
  payload          jsonb NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX events_tenant_idx ON events (organization_id, environment, created_at, id);
CREATE INDEX events_connection_idx ON events (connection_id, created_at);
