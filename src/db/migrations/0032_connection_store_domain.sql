-- The account's own web domain where its platform has one (Shopify's {shop}.myshopify.com), served as the connection's
-- store_domain. Shopify names the shop in its webhooks by this domain, not by its id, so notifications are matched on
-- it as well as on store_unique_id; the partial index keeps that lookup an index scan.
ALTER TABLE connections ADD COLUMN IF NOT EXISTS store_domain text;
CREATE INDEX IF NOT EXISTS connections_store_domain ON connections (organization_id, environment, platform, store_domain)
  WHERE store_domain IS NOT NULL;
