-- The records of an object's last full read (issue 24): the denominator of the dashboard's estimated completion of a
-- running sync. What the running sync has read so far is its own row of sync_run_objects (migration 0036).
ALTER TABLE sync_objects ADD COLUMN IF NOT EXISTS last_full_read_records integer;
