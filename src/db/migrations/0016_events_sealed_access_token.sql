-- No access token in clear in the event store. A webhook body keeps its access_token key (so the delivered body has
-- its key order) with the value null; the token itself is kept sealed (AES-256-GCM, like connections') beside it and
-- put back when the webhook is sent (src/events/access-token-slot.ts).
ALTER TABLE events ADD COLUMN access_token_ciphertext bytea;

-- Events written before this migration hold the token in clear. Their connection's sealed token replaces it: the same
-- token, or, if it was invalidated since, the one that works now. The text is edited in place (payload is json, its
-- key order is the delivered body's); every "access_token": "…" pair is emptied, nested ones too.
UPDATE events e
   SET access_token_ciphertext = (SELECT c.access_token_ciphertext FROM connections c WHERE c.id = e.connection_id),
       payload = regexp_replace(payload::text, '("access_token"\s*:\s*)"(?:[^"\\]|\\.)*"', '\1null', 'g')::json
 WHERE json_typeof(payload -> 'access_token') = 'string';

-- A body written with other spacing than the pattern expects: emptied through jsonb (its key order may change).
UPDATE events
   SET payload = (payload::jsonb || '{"access_token": null}'::jsonb)::json
 WHERE json_typeof(payload -> 'access_token') = 'string';

-- Events of connections deleted before this migration have no token to send: their pending deliveries end here.
UPDATE webhook_deliveries d
   SET status = 'failed', finished_at = clock_timestamp(), updated_at = clock_timestamp(), locked_until = NULL,
       last_error = 'the connection was deleted before this webhook was sent: it has no access token to send'
  FROM events e
 WHERE e.id = d.event_id AND d.status IN ('pending', 'delivering')
   AND e.access_token_ciphertext IS NULL AND json_typeof(e.payload -> 'access_token') = 'null';
