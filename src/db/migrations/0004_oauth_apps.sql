-- Each organisation registers its own OAuth app per platform and environment (admin API).
CREATE TABLE oauth_apps (
  organization_id          uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  environment              text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  platform                 text NOT NULL,
  client_id                text NOT NULL,
  client_secret_ciphertext bytea NOT NULL,
  redirect_uri             text NOT NULL,
  created_at               timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at               timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (organization_id, environment, platform)
);
