-- What each sync run did, per object (issue 24, the dashboard's sync history and live progress): pages and records
-- read from the platform and the changes they made to the stored copy. Written by the same transaction that stores
-- each page (src/sync/runner.ts), so a run's counts are exactly what it stored, also across retries and pauses.
CREATE TABLE IF NOT EXISTS sync_run_objects (
  run_id uuid NOT NULL REFERENCES sync_runs (id) ON DELETE CASCADE,
  object_type text NOT NULL,
  pages_read integer NOT NULL DEFAULT 0,
  records_read integer NOT NULL DEFAULT 0,
  created integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  deleted integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (run_id, object_type)
);
