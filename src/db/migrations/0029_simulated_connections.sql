-- A connection linked to a platform simulator (src/platforms/simulators.ts, docs/simulators.md). The link flow decides it
-- when consent starts (the sandbox environment, a platform with a simulator, no OAuth app of the organisation; a
-- re-link keeps the connection's choice), keeps it with the OAuth state, and writes it to the connection only when the
-- link completes, in the same transaction as the tokens: so a flow that is abandoned or refused never points a linked
-- connection's tokens at the other side, and an app the organisation registers later changes nothing for it.
ALTER TABLE connections ADD COLUMN IF NOT EXISTS simulated boolean NOT NULL DEFAULT false;
ALTER TABLE oauth_states ADD COLUMN IF NOT EXISTS simulated boolean NOT NULL DEFAULT false;
