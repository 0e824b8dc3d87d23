-- The default list order (updated_at DESC, id DESC) with nulls last, exactly as the read
-- query writes its sort key, so a page is an index range scan at any depth.
DROP INDEX IF EXISTS records_list_updated_idx;
CREATE INDEX records_list_default_idx ON records
  (connection_id, object_type, COALESCE(updated_at, '-infinity'::timestamptz) DESC, id DESC)
  WHERE deleted_at IS NULL;
