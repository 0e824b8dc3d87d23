-- The dashboard's people (issue 24): users of one organisation with a role, their sessions, one-time sign-in links
-- (the first admin's, invitations) and the audit log of what they did. Secrets are kept as SHA-256 only: a session
-- cookie, a sign-in link and an OpenID Connect state are verified, never read back.
CREATE TABLE IF NOT EXISTS dashboard_users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'developer', 'viewer')),
  -- argon2id in PHC form; null until the user chooses one (invited, or signing in through OpenID Connect only).
  password_hash text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz
);
-- One person, one account: an email signs in to exactly one organisation.
CREATE UNIQUE INDEX IF NOT EXISTS dashboard_users_email ON dashboard_users (lower(email));
CREATE INDEX IF NOT EXISTS dashboard_users_organization ON dashboard_users (organization_id, created_at);

CREATE TABLE IF NOT EXISTS dashboard_sessions (
  token_sha256 bytea PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  -- Sent back in X-CSRF-Token (or the form's _csrf) on every state-changing request.
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS dashboard_sessions_user ON dashboard_sessions (user_id);

CREATE TABLE IF NOT EXISTS dashboard_sign_in_links (
  token_sha256 bytea PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('first_admin', 'invitation')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE IF NOT EXISTS dashboard_oidc_states (
  state_sha256 bytea PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS dashboard_audit_log (
  id bigserial PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id uuid REFERENCES dashboard_users (id) ON DELETE SET NULL,
  -- The email at the time: the entry outlives the user.
  actor text NOT NULL,
  action text NOT NULL,
  target text,
  environment text,
  status integer NOT NULL,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS dashboard_audit_log_organization ON dashboard_audit_log (organization_id, id DESC);
