-- A connection created for an account another connection of the organisation already holds: the link flow joins the
-- end user to the holder and keeps this one as a pointer to it, so requests with its access token answer
-- IS_DUPLICATE naming the holder instead of 401 for a token that vanished (docs/connections.md, "De-duplication").
-- A new nullable column, no rewrite.
ALTER TABLE connections ADD COLUMN duplicate_of uuid REFERENCES connections (id) ON DELETE CASCADE;
