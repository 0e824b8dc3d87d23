-- The consent scopes an OAuth app asks for (null: the connector's list). Xero's apps created since March 2026 may ask
-- only for granular scopes, and which ones an app may ask for is set in its developer portal, so the operator states
-- them once per app; a connection's own scope (POST /connections/create) still replaces them.
ALTER TABLE oauth_apps ADD COLUMN IF NOT EXISTS scope text;
