-- Bank feed transactions as clients sent them (GET /accounting/bank_feeds/transactions): a statement line is pushed by
-- the client, never read back from the platform, so the service keeps what the platform accepted. Written in the
-- transaction that completes the send job; a line sent again (same institution id on the same feed account) is the
-- line already kept, as the platform skips it too.
CREATE TABLE bank_feed_transactions (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  connection_id        uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  bank_feed_account_id uuid NOT NULL,
  transaction_id       text NOT NULL,
  -- The reference's fields of the line but id, bank_feed_account_id, transaction_id and last_synced_at.
  line                 jsonb NOT NULL,
  write_job_id         uuid NOT NULL,
  created_at           timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (connection_id, bank_feed_account_id, transaction_id)
);
-- Newest first, keyset-paged per connection (and per feed account when the list is filtered by it).
CREATE INDEX bank_feed_transactions_page_idx ON bank_feed_transactions (connection_id, created_at DESC, id DESC);
