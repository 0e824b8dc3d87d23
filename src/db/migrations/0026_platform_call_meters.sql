-- Platform request limits shared by every process (docs/sync.md, "Platform limits and budgets"): what a connection
-- has used of its platform's rate, daily budget and cost bucket. One row per connection and scope ('' for the
-- connection as a whole, 'operation:<name>' for a per-operation rate), changed by one upsert per platform call
-- (src/sql/take-platform-call.ts) that takes capacity or says how long to wait. The limits themselves are the
-- connector's declaration, passed with each call, so a changed declaration applies at once.
-- UNLOGGED: a take writes no WAL and waits for no flush (bench/platform-limits.ts: 0.43 ms at p50 and 1.5 ms at p99
-- instead of 0.57 and 5.6; 3,200 takes a second from one connection's meter instead of 1,300). A crash of
-- PostgreSQL (or a failover) forgets the counts: until the connection's windows end its calls may go past a limit,
-- and then the platform's own 429s and long Retry-After (platform_pauses) hold them back, as before this table.
CREATE UNLOGGED TABLE platform_call_meters (
  connection_id      uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  scope              text NOT NULL,
  -- Rate, as a generic cell rate (GCRA): when the next call may start if calls are spaced evenly; null without a rate.
  next_call_at       timestamptz,
  -- Daily budget: the 24-hour window opened by its first call, and the calls taken in it.
  day_started_at     timestamptz NOT NULL,
  day_calls          integer NOT NULL,
  -- Cost bucket: points left as of bucket_at, below zero while taken calls wait for points; null without a bucket.
  bucket_points      double precision,
  bucket_at          timestamptz,
  -- The latest take: when, and whether it was granted (PostgreSQL before 18 cannot return the row as it was).
  taken_at           timestamptz NOT NULL,
  last_take_granted  boolean NOT NULL,
  PRIMARY KEY (connection_id, scope)
);
