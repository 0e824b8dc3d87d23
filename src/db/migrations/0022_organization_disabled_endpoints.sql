-- Endpoints the operator turned off for an organisation, as "METHOD /path" of the API's route templates (for example
-- "POST /accounting/bills"): requests to them answer ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION (src/tenants/endpoints.ts).
-- A new column with a constant default, no rewrite.
ALTER TABLE organizations ADD COLUMN disabled_endpoints text[] NOT NULL DEFAULT '{}';
