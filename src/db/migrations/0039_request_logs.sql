-- Each organisation's API request log (docs/reference.md, "Request log"): one row per client-authenticated request,
-- written in batches off the request path (src/http/request-log.ts) and pruned by the maintenance job, both by age
-- (REQUEST_LOG_RETENTION_HOURS) and to the newest REQUEST_LOG_MAX_ROWS rows of each organisation.
-- No foreign keys: a batch must not fail because a connection was deleted meanwhile, and the log of a deleted
-- connection stays readable until it ages out.
CREATE TABLE request_logs (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  environment text NOT NULL,
  created_at timestamptz NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  status smallint NOT NULL,
  duration_ms real NOT NULL,
  request_id text NOT NULL,
  connection_id uuid,
  error_code text
);
-- The list (newest first, keyset paging) and the size bound's cut per organisation.
CREATE INDEX request_logs_by_organization ON request_logs (organization_id, environment, created_at DESC, id DESC);
-- Search by request id.
CREATE INDEX request_logs_by_request_id ON request_logs (organization_id, request_id);
-- Filter by connection.
CREATE INDEX request_logs_by_connection ON request_logs (connection_id, created_at DESC, id DESC) WHERE connection_id IS NOT NULL;
-- Pruning by age across organisations.
CREATE INDEX request_logs_by_age ON request_logs (created_at);
