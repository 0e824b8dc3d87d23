-- The X-Request-Id of the API request that caused a write job or a sync run: the worker's log lines for that
-- job carry it, so one write can be followed from the request to each platform call (docs/operations.md, "Logs").
-- Null for work nobody asked for over the API (schedules, sweeps, follow-up syncs).
ALTER TABLE write_jobs ADD COLUMN request_id text;
ALTER TABLE sync_runs ADD COLUMN request_id text;
