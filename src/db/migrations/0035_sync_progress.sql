-- The dashboard's progress of a running sync (issue 24): what the run now reading an object has read so far, kept by
-- the same UPDATE that already counts every stored page (pages_read and records_read count all syncs), and the
-- records of the object's last full read, the denominator of an estimated completion.
ALTER TABLE sync_objects ADD COLUMN IF NOT EXISTS run_pages_read integer NOT NULL DEFAULT 0;
ALTER TABLE sync_objects ADD COLUMN IF NOT EXISTS run_records_read integer NOT NULL DEFAULT 0;
ALTER TABLE sync_objects ADD COLUMN IF NOT EXISTS last_full_read_records integer;
