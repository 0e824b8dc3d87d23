-- No link token and no OAuth state in clear at rest.
--
-- A link token opens its connection's link page (whoever holds it can attach platform credentials to the
-- connection). It is found by its SHA-256 and kept AES-256-GCM sealed (like access tokens) because the service shows
-- link_url again (connection views, update_url in webhooks). SQL has no key, so rows written before this migration
-- keep their clear link_token until the start-up step that runs after the migrations seals it and empties it
-- (src/connections/seal-link-tokens.ts); from then on exactly one of the two is set, and new rows only ever have
-- the sealed copy.
ALTER TABLE connections
  ADD COLUMN link_token_sha256 bytea,
  ADD COLUMN link_token_ciphertext bytea;
UPDATE connections SET link_token_sha256 = sha256(convert_to(link_token, 'UTF8'));
ALTER TABLE connections
  ALTER COLUMN link_token_sha256 SET NOT NULL,
  ALTER COLUMN link_token DROP NOT NULL,
  ADD CONSTRAINT connections_link_token_sealed_or_legacy CHECK ((link_token IS NULL) <> (link_token_ciphertext IS NULL));
CREATE UNIQUE INDEX connections_link_token_sha256_idx ON connections (link_token_sha256);

-- Webhook bodies carry update_url, the link address: kept like access_token (src/events/access-token-slot.ts), its
-- slot null in the stored body and the value sealed beside it. Events of existing connections are sealed by the same
-- start-up step; those of connections deleted since hold a token that opens nothing any more: emptied here.
ALTER TABLE events ADD COLUMN update_url_ciphertext bytea;
UPDATE events e
   SET payload = regexp_replace(payload::text, '("update_url"\s*:\s*)"(?:[^"\\]|\\.)*"', '\1null', 'g')::json
 WHERE json_typeof(payload -> 'update_url') = 'string'
   AND NOT EXISTS (SELECT 1 FROM connections c WHERE c.id = e.connection_id);

-- OAuth consent states (15 minutes, single use) are only ever looked up: their SHA-256 is enough.
ALTER TABLE oauth_states ADD COLUMN state_sha256 bytea;
UPDATE oauth_states SET state_sha256 = sha256(convert_to(state, 'UTF8'));
ALTER TABLE oauth_states DROP CONSTRAINT oauth_states_pkey;
ALTER TABLE oauth_states DROP COLUMN state;
ALTER TABLE oauth_states ADD PRIMARY KEY (state_sha256);
