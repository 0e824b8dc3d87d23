-- Writes passed through to platforms: one durable job per accepted write.
-- The row is inserted in the same transaction as its pg-boss job, so a write is
-- never lost between "accepted" and "queued"; its id is the idempotency key sent
-- to the platform, so re-running it never applies it twice.

CREATE TABLE write_jobs (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id    uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  environment        text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  connection_id      uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  object_type        text NOT NULL,
  operation          text NOT NULL CHECK (operation IN (
                       'create', 'update', 'delete', 'apply_credit', 'unapply_credit',
                       'upload_attachment', 'send_bank_feed_transactions', 'bank_feed_mapping_link')),
  -- Service id of the record the write acts on (update, delete, actions); null for creates.
  target_id          uuid,
  -- What the client asked: method, path (no query) and body, served back by GET /jobs/:id.
  request            jsonb NOT NULL,
  status             text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'in_progress', 'completed', 'failed')),
  -- The platform may have applied the write (a timeout, a 5xx or a crash after the
  -- request left): the platform is re-read before any further attempt.
  indeterminate      boolean NOT NULL DEFAULT false,
  attempts           integer NOT NULL DEFAULT 0,
  -- The answer a synchronous request gets: status code and body (success or error body).
  response_status    integer,
  response           jsonb,
  -- Service id of the record written (creates learn it from the platform).
  result_id          uuid,
  -- The client's Idempotency-Key: a retried request with the same key joins this job.
  idempotency_key    text,
  created_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  started_at         timestamptz,
  finished_at        timestamptz
);
CREATE UNIQUE INDEX write_jobs_idempotency_idx ON write_jobs (organization_id, environment, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX write_jobs_connection_idx ON write_jobs (connection_id, created_at);
-- The sweeper's view: jobs that are not finished.
CREATE INDEX write_jobs_open_idx ON write_jobs (updated_at) WHERE status IN ('pending', 'in_progress');

-- Uploaded files waiting for (and kept with) their job. bytea rather than large
-- objects: the file commits atomically with its job, goes with it by cascade,
-- and needs no lo_unlink housekeeping; uploads are capped at 10 MiB.
CREATE TABLE write_job_files (
  job_id        uuid PRIMARY KEY REFERENCES write_jobs (id) ON DELETE CASCADE,
  file_name     text NOT NULL,
  content_type  text NOT NULL,
  content       bytea NOT NULL
);

-- Writes ask for a follow-up incremental sync (records the write touched on the side).
ALTER TABLE sync_runs DROP CONSTRAINT sync_runs_trigger_check;
ALTER TABLE sync_runs ADD CONSTRAINT sync_runs_trigger_check CHECK (trigger IN ('link', 'schedule', 'manual', 'api', 'write'));
