-- Formerly the SANDBOX platform's bank feed lines (sandbox_platform.feed_lines). The
-- sandbox's own now: packages/sandbox/migrations/0002_feed_lines.sql, applied by
-- the sandbox itself when SANDBOX_ENABLED (recorded in sandbox_platform.schema_migrations).
-- Kept, empty, so the numbering and the schema_migrations of existing installations
-- stay as they are (docs/upgrading.md, "SANDBOX's own migrations").
SELECT 1;
