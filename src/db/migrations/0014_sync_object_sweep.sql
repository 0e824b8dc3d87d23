-- Whether the read in progress remembers what it sees (sync_seen) and, at the end of a full listing, marks what it
-- did not see as deleted. Decided once when the read begins: false when no live record of the type was synced before
-- its run (nothing to sweep), kept as it is across a resume. Asking again on resume would compare timestamps the
-- application wrote with the database's clock, and a clock running behind would make the run's own records look
-- older than the run (docs/sync.md, "Deletions").
ALTER TABLE sync_objects ADD COLUMN sweep_deletions boolean NOT NULL DEFAULT true;
