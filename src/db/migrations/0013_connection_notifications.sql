-- Every change to a connection row is announced (NOTIFY ledgerport_connections, payload: its id), so each API process
-- can drop what it remembers about that connection (src/connections/access-token-cache.ts). Sent at commit, only by
-- transactions that changed a connection; identical notifications within one transaction are sent once.
CREATE FUNCTION ledgerport_notify_connection_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ledgerport_connections', OLD.id::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER connections_notify_change AFTER UPDATE OR DELETE ON connections
  FOR EACH ROW EXECUTE FUNCTION ledgerport_notify_connection_change();
