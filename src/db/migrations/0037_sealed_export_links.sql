-- A ready bulk export's result cursor holds the platform's link to the results (Shopify: a bearer URL to the shop's
-- data, valid for 7 days): it is sealed from now on (AES-256-GCM, src/crypto/secrets.ts) and dropped once read.
ALTER TABLE sync_exports ADD COLUMN result_cursor_ciphertext bytea;

-- Exports of runs that are over are never read again: dropped with their links.
DELETE FROM sync_exports e
 WHERE NOT EXISTS (SELECT 1 FROM sync_runs r WHERE r.id = e.run_id AND r.status IN ('queued', 'running'));

-- A migration cannot seal (the key is the service's): a ready export of a live run is polled again instead, and the
-- platform gives its link again, which is then stored sealed.
UPDATE sync_exports SET status = 'running' WHERE status = 'ready';
ALTER TABLE sync_exports DROP COLUMN result_cursor;

-- The page tokens of an export being read carried the link too (SHOPIFY's `{"url": …, "offset": …}`): that read
-- starts its batch's pages again, from the re-polled link; page tokens of exports are sealed from now on.
UPDATE sync_objects SET page_token = NULL WHERE page_token LIKE '{"url":%';
