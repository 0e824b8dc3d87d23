-- Statement lines sent to the SANDBOX platform's bank feed accounts
-- (POST /v1/BankFeedAccounts/<id>/Transactions, packages/sandbox). Like the
-- rest of schema sandbox_platform, this plays the role of an external platform's
-- storage: nothing outside packages/sandbox reads it. IF NOT EXISTS: an installation
-- upgraded from before the sandbox had its own migrations has it already (the product's old 0009).

CREATE TABLE IF NOT EXISTS sandbox_platform.feed_lines (
  account_id          integer NOT NULL,
  feed_id             text NOT NULL,
  -- The institution's own id of the line: the platform keeps one line per id and feed.
  institution_txn_id  text NOT NULL,
  -- The batch (statement) that brought the line, e.g. "FTB-000001".
  batch_id            text NOT NULL,
  txn_date            date NOT NULL,
  -- Signed integer cents: money in positive, money out negative (as the platform's money elsewhere).
  amount_cents        bigint NOT NULL,
  description         text NOT NULL,
  payee               text,
  reference           text,
  running_balance_cents bigint,
  received_at         timestamptz NOT NULL,
  PRIMARY KEY (account_id, feed_id, institution_txn_id)
);
CREATE INDEX IF NOT EXISTS feed_lines_batch_idx ON sandbox_platform.feed_lines (account_id, batch_id);
