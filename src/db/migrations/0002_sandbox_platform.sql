-- Formerly the SANDBOX platform's tables (schema sandbox_platform). They are the
-- sandbox's own now: packages/sandbox/migrations/0001_platform.sql, applied by
-- the sandbox itself when SANDBOX_ENABLED (recorded in sandbox_platform.schema_migrations).
-- Kept, empty, so the numbering and the schema_migrations of existing installations
-- stay as they are (docs/upgrading.md, "SANDBOX's own migrations").
SELECT 1;
