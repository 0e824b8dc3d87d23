-- Calls per calendar month (UTC) of each connection, beside its 24-hour window, taken by the same upsert per platform
-- call (src/sql/take-platform-call.ts) at no extra statement: Intuit meters an app's calls per month (the App Partner
-- Program's tiers), so an operator sees what each OAuth app spent this month (GET /admin/organizations/:id/oauth_apps,
-- calls_this_month: the sum over the app's connections). Like the rest of this UNLOGGED table, a crash of PostgreSQL
-- forgets the counts.
ALTER TABLE platform_call_meters
  ADD COLUMN IF NOT EXISTS month_started_at timestamptz,
  ADD COLUMN IF NOT EXISTS month_calls bigint NOT NULL DEFAULT 0;
