-- The stored copy: every synced object of every connection, in its unified shape,
-- plus per-object sync state. Reads are answered from here.

CREATE TABLE records (
  connection_id    uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  object_type      text NOT NULL,
  -- Derived from (connection, type, platform_id): stable across syncs (src/store/ids.ts).
  id               uuid NOT NULL,
  platform_id      text NOT NULL,
  -- The unified object as served, without platform_data and last_synced_at.
  data             jsonb NOT NULL,
  raw              jsonb,
  -- SHA-256 of the canonical unified object: unchanged objects write nothing and fire nothing.
  content_hash     bytea NOT NULL,
  raw_hash         bytea,
  -- The object's own timestamps, for sorting and filtering without unpacking jsonb.
  updated_at       timestamptz,
  created_at       timestamptz,
  business_date    timestamptz,
  -- When a sync last stored a change to this object (or first stored it).
  last_synced_at   timestamptz NOT NULL,
  deleted_at       timestamptz,
  PRIMARY KEY (connection_id, object_type, id)
);
CREATE UNIQUE INDEX records_platform_id_idx ON records (connection_id, object_type, platform_id);
-- Default list order (updated_at DESC, id DESC) over live records.
CREATE INDEX records_list_updated_idx ON records (connection_id, object_type, updated_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX records_list_synced_idx ON records (connection_id, object_type, last_synced_at, id) WHERE deleted_at IS NULL;

CREATE TABLE sync_objects (
  connection_id      uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  object_type        text NOT NULL,
  status             text NOT NULL DEFAULT 'not_started'
                     CHECK (status IN ('not_started', 'in_progress', 'completed', 'failed')),
  -- Incremental cursor from the last complete read (opaque to us; the connector's).
  since_cursor       text,
  -- Resume point inside the read in progress: its run, window and page token.
  run_id             uuid,
  run_window         jsonb,
  page_token         text,
  pages_read         integer NOT NULL DEFAULT 0,
  records_read       integer NOT NULL DEFAULT 0,
  error              text,
  last_started_at    timestamptz,
  last_completed_at  timestamptz,
  PRIMARY KEY (connection_id, object_type)
);

-- Full-listing deletion detection for platforms that do not report deletions:
-- the platform ids a run saw, kept apart so that an unchanged resync writes no record.
CREATE TABLE sync_seen (
  run_id       uuid NOT NULL,
  object_type  text NOT NULL,
  platform_id  text NOT NULL,
  PRIMARY KEY (run_id, object_type, platform_id)
);

-- Batched initial syncs: how many batches of the run in progress this object has finished.
ALTER TABLE sync_objects ADD COLUMN batches_done integer NOT NULL DEFAULT 0;
-- Attempts of a run (each pg-boss delivery); a run fails for good after the limit.
ALTER TABLE sync_runs ADD COLUMN attempts integer NOT NULL DEFAULT 0;
