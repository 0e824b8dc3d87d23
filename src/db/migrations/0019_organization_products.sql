-- Products an organisation may use (issue 20, item 3): data and writes of a product not listed answer
-- PRODUCT_NOT_ALLOWED. Set by the operator (PUT /admin/organizations/:id/products); every product by default, so
-- existing organisations keep everything they had.
ALTER TABLE organizations
  ADD COLUMN products text[] NOT NULL DEFAULT ARRAY['accounting', 'commerce', 'payments', 'bank_feeds']
    CONSTRAINT organizations_products_known CHECK (products <@ ARRAY['accounting', 'commerce', 'payments', 'bank_feeds']);
