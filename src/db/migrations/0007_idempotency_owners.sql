-- Stored answers may hold access tokens: they are sealed (AES-256-GCM) like every other secret.
-- Each claim has an owner, so a request that lost its claim can neither store nor free it.
DELETE FROM idempotency_keys;
ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE bytea USING NULL::bytea;
ALTER TABLE idempotency_keys ADD COLUMN owner uuid;
