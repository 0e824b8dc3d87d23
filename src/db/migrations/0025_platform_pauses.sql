-- A platform that answers with a long Retry-After (Xero's daily limit: about 11 hours) pauses that connection's
-- platform calls until then, in every process: syncs and writes wait for the end of the pause instead of being
-- retried on the job queue's schedule. One row per connection, the latest end wins; ended rows are harmless and
-- replaced by the next pause (docs/sync.md, "Platform pauses").
CREATE TABLE platform_pauses (
  connection_id  uuid PRIMARY KEY REFERENCES connections (id) ON DELETE CASCADE,
  paused_until   timestamptz NOT NULL,
  reason         text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT clock_timestamp()
);
