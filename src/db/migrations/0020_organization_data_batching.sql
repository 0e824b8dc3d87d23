-- Data batching as the spec has it, an organisation setting ("only for organisations with data batching on"), with
-- a connection's syncConfig.data_batching overriding it. {"months": [1, 6]} or NULL (off, the default).
ALTER TABLE organizations ADD COLUMN data_batching jsonb;

-- The status endpoint asks for a connection's initial runs (their batches) on every call: found by index, not by
-- reading every run the connection ever had.
CREATE INDEX sync_runs_initial_idx ON sync_runs (connection_id) WHERE kind = 'initial';
