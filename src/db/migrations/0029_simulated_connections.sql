-- A connection linked to a platform simulator (src/platforms/simulators.ts, docs/simulators.md): set when its link
-- flow starts in the sandbox environment without an OAuth app of the organisation, so that its calls keep going to
-- the simulator even after the organisation registers a real app.
ALTER TABLE connections ADD COLUMN IF NOT EXISTS simulated boolean NOT NULL DEFAULT false;
