-- Platforms that call us (docs/connectors.md, "Platforms that call us"): QuickBooks Desktop's Web Connector polls our
-- SOAP endpoint instead of us calling the platform. Everything lives here, nothing in a process's memory, so any API
-- process answers any call of a Web Connector session.

-- What the end user installs for a connection (the .qwc file and its password): the user name is in the file, the
-- password is shown once and kept only as its SHA-256 (a generated 192-bit secret: no slow hash needed).
CREATE TABLE polled_endpoints (
  connection_id   uuid PRIMARY KEY REFERENCES connections (id) ON DELETE CASCADE,
  username        text NOT NULL UNIQUE,
  password_sha256 bytea NOT NULL,
  owner_id        uuid NOT NULL,
  file_id         uuid NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- One Web Connector session: its ticket by SHA-256, short-lived; last_error is what getLastError answers.
CREATE TABLE polled_tickets (
  ticket_sha256 bytea PRIMARY KEY,
  connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  expires_at    timestamptz NOT NULL,
  last_error    text NOT NULL DEFAULT ''
);
CREATE INDEX polled_tickets_expiry_idx ON polled_tickets (expires_at);

-- The requests a sync run or write job waits on, per connection, in the order they were queued. A request is handed to
-- one session (claimed FOR UPDATE SKIP LOCKED); one sent under a session that ended without its answer is handed out
-- again. request_key names it within its job, so a restarted job finds its own request instead of queueing another.
CREATE TABLE polled_requests (
  id            uuid PRIMARY KEY,
  connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  request_key   text NOT NULL,
  sync_run_id   uuid,
  write_job_id  uuid,
  request       text NOT NULL,
  status        text NOT NULL CHECK (status IN ('pending', 'sent', 'answered', 'failed')),
  ticket_sha256 bytea,
  issued        integer NOT NULL DEFAULT 0,
  answer        text,
  error         text,
  created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  sent_at       timestamptz,
  answered_at   timestamptz,
  UNIQUE (connection_id, request_key),
  CHECK ((sync_run_id IS NULL) <> (write_job_id IS NULL))
);
CREATE INDEX polled_requests_open_idx ON polled_requests (connection_id, created_at) WHERE status IN ('pending', 'sent');
CREATE INDEX polled_requests_done_idx ON polled_requests (answered_at) WHERE status IN ('answered', 'failed');
