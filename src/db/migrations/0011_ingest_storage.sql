-- Cheaper ingest (issue 10's benchmark: each stored object costs a jsonb parse of its unified
-- object, of its platform record and of its event's payload).
-- platform_data and webhook bodies are only ever served as they are, never queried by field:
-- json (validated text) is about twice as fast to write as jsonb, and keeps the platform's own key order.
ALTER TABLE records ALTER COLUMN raw TYPE json USING raw::json;
ALTER TABLE events ALTER COLUMN payload TYPE json USING payload::json;
-- A synced object with its platform record is typically 2-4 kB: kept inline and uncompressed up to
-- a full page, instead of being compressed by TOAST above 2 kB on every write (measured: ~15% faster upserts).
ALTER TABLE records SET (toast_tuple_target = 8160);
