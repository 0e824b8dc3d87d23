-- Dashboard accounts per organisation (issue 32): an email may have an account in several organisations, each with
-- its own password and role, so inviting never tells one organisation about another's users. Signing in through
-- OpenID Connect reaches only an account whose invitation the person accepted at the identity provider
-- (`oidc_accepted_at`): an organisation that invites an address first can no longer claim that person's sign-ins.
DROP INDEX IF EXISTS dashboard_users_email;
CREATE UNIQUE INDEX IF NOT EXISTS dashboard_users_organization_email ON dashboard_users (organization_id, lower(email));
CREATE INDEX IF NOT EXISTS dashboard_users_email ON dashboard_users (lower(email));
ALTER TABLE dashboard_users ADD COLUMN IF NOT EXISTS oidc_accepted_at timestamptz;
-- Accounts that have signed in before the upgrade keep signing in through the provider: under the old rule an email
-- had one account, and someone has used it.
UPDATE dashboard_users SET oidc_accepted_at = last_sign_in_at WHERE oidc_accepted_at IS NULL AND last_sign_in_at IS NOT NULL;
-- A sign-in started from an invitation link ("Accept with …") or for one chosen organisation.
ALTER TABLE dashboard_oidc_states ADD COLUMN IF NOT EXISTS sign_in_link_sha256 bytea;
ALTER TABLE dashboard_oidc_states ADD COLUMN IF NOT EXISTS organization_id uuid;
