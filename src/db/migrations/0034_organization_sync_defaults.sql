-- The organisation's default sync configuration (issue 24, the dashboard's Platforms page): entities, history windows
-- and incremental frequency for every connection created without a syncConfig of its own. Resolved when a sync is
-- planned, not copied at creation, so changing the default reaches every connection that follows it. Null: the
-- service's defaults (all entities, 24 months, hourly).
ALTER TABLE organizations ADD COLUMN IF NOT EXISTS sync_config jsonb;
