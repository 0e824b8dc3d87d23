-- The SANDBOX platform's own state: a synthetic business per test account,
-- kept apart from the service's tables because it plays the role of an external
-- platform (packages/sandbox). Nothing outside that folder reads it.

-- IF NOT EXISTS throughout: the schema outlives a reset of `public`, and an installation
-- upgraded from before the sandbox had its own migrations already has these tables (made
-- by the product's old 0002): this migration adopts them as they are.
CREATE SCHEMA IF NOT EXISTS sandbox_platform;

-- One row per sandbox account (account_key = basic_username).
CREATE TABLE IF NOT EXISTS sandbox_platform.accounts_state (
  id                integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_key       text NOT NULL UNIQUE,
  seed              bigint NOT NULL,
  size              integer NOT NULL CHECK (size > 0),
  scenario          text NOT NULL,
  -- Last business day of the generated history; set when the books are materialized.
  as_of             date,
  -- Next number per id prefix, so new records continue the generated sequences.
  counters          jsonb NOT NULL DEFAULT '{}',
  -- What inventing documents needs (tax codes, terms, items, …), saved by the generator.
  palette           jsonb,
  vendor_count      integer NOT NULL DEFAULT 0,
  customer_count    integer NOT NULL DEFAULT 0,
  tick              integer NOT NULL DEFAULT 0,
  -- Last change sequence number: the platform's clock for incremental reads.
  seq               bigint NOT NULL DEFAULT 0,
  -- API calls answered, for the deterministic faults of the fault scenarios.
  calls             bigint NOT NULL DEFAULT 0,
  materialized_at   timestamptz,
  last_tick_at      timestamptz,
  revoked_at        timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);

-- Native records. No foreign key to accounts_state: it would cost a lookup per
-- row when a million records are inserted; records go with their account in code.
CREATE TABLE IF NOT EXISTS sandbox_platform.records (
  account_id     integer NOT NULL,
  object_type    text NOT NULL,
  platform_id    text NOT NULL,
  -- json, not jsonb: keeps the platform's key order and ingests a million rows noticeably faster.
  data           json NOT NULL,
  business_date  date,
  -- Change sequence of the last change; 0 for records as generated.
  seq            bigint NOT NULL DEFAULT 0,
  version        integer NOT NULL DEFAULT 1,
  -- The value the platform keeps unique per type (DocNumber, DisplayName, Name), for duplicate checks.
  lookup         text,
  updated_at     timestamptz NOT NULL,
  deleted_at     timestamptz,
  -- Full reads page by platform id (keyset) on this key.
  PRIMARY KEY (account_id, object_type, platform_id)
);
-- Incremental reads: only changed records are indexed (generated ones have seq 0).
CREATE INDEX IF NOT EXISTS records_changes_idx ON sandbox_platform.records (account_id, object_type, seq) WHERE seq > 0;
CREATE INDEX IF NOT EXISTS records_lookup_idx ON sandbox_platform.records (account_id, object_type, lookup) WHERE lookup IS NOT NULL;

CREATE TABLE IF NOT EXISTS sandbox_platform.change_log (
  account_id   integer NOT NULL,
  seq          bigint NOT NULL,
  tick         integer NOT NULL,
  object_type  text NOT NULL,
  platform_id  text NOT NULL,
  op           text NOT NULL CHECK (op IN ('created', 'updated', 'deleted')),
  at           timestamptz NOT NULL,
  PRIMARY KEY (account_id, seq)
);

-- Idempotent writes: the same key returns the stored answer instead of writing twice.
CREATE TABLE IF NOT EXISTS sandbox_platform.writes (
  account_id       integer NOT NULL,
  idempotency_key  text NOT NULL,
  method           text NOT NULL,
  path             text NOT NULL,
  request_sha256   text NOT NULL,
  status           integer NOT NULL,
  response         json NOT NULL,
  object_type      text,
  platform_id      text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, idempotency_key)
);
