-- Connector interface v2 (issue 21).
--
-- Per-connection authorisation input (a Shopify shop domain, an Amazon region): asked for by the link flow before the
-- consent page, kept sealed with the OAuth state until the callback (and the tenant pick) needs it again. Once linked
-- it is the connection's sealed credentials (connections.credentials_ciphertext), so every later call sees it.
ALTER TABLE oauth_states ADD COLUMN authorization_input_ciphertext bytea;

-- Bulk and asynchronous exports as a read mode (src/sync/bulk-read.ts): the export a read of one object started, so a
-- run restarted after a crash polls the same export instead of starting another. One row per connection and object,
-- replaced when a later read starts its own; it belongs to the read of (run_id, batch_index) only.
CREATE TABLE sync_exports (
  connection_id  uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  object_type    text NOT NULL,
  run_id         uuid NOT NULL,
  batch_index    integer NOT NULL,
  export_id      text NOT NULL,
  status         text NOT NULL CHECK (status IN ('running', 'ready')),
  -- Where the results begin, as the platform said when the export became ready.
  result_cursor  text,
  started_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  polled_at      timestamptz,
  PRIMARY KEY (connection_id, object_type)
);
