-- Data batching as the spec has it, an organisation setting ("only for organisations with data batching on"), with
-- a connection's syncConfig.data_batching overriding it. {"months": [1, 6]} or NULL (off, the default).
ALTER TABLE organizations ADD COLUMN data_batching jsonb;
