-- Issue 19, items 4 and 7.
--
-- The redirect URLs an organisation allows per environment: the link flow sends
-- an end user (with a fresh public_token) only to a URL on this list. No row
-- means no list: sandbox then accepts the redirect_url given at connection
-- creation, production accepts none. An empty array is a list that allows none.
CREATE TABLE redirect_url_lists (
  organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  environment      text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  urls             text[] NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (organization_id, environment)
);

-- Failed authentications per source address and per target (admin token, one
-- client_id, one connection's link), in fixed windows opened by the first
-- failure, shared by every API process. Only failures write here; losing the
-- counts in a crash only forgives the failures of the current window.
CREATE UNLOGGED TABLE auth_failures (
  bucket        text PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  failures      integer NOT NULL
);
