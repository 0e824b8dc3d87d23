/**
 * Which Ledgerport processes use the embedded PostgreSQL. Each one holds a shared advisory lock (in the `postgres`
 * database) on a connection of its own for as long as it runs; a killed process loses it the moment its socket
 * closes. A stopping process releases its own and asks for the lock exclusively: granted, no other Ledgerport
 * process is left and this one stops the server, whether it started it or adopted it after a crash; refused, the
 * server stays up for the others. The exclusive lock is kept until the server is gone, so a process attaching at that
 * moment waits on its shared lock and then finds the server stopped (src/db/embedded.ts starts it again).
 */
import pg from 'pg';

const PRESENCE_KEY_SQL = `hashtextextended('ledgerport embedded presence', 0)`;
const RECONNECT_MS = 1000;

export interface Presence {
  /** Gives the shared lock back (explicitly, not by closing: a closing backend may keep it a moment longer). */
  release(): Promise<void>;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'ledgerport-presence' });
  // A lost connection is handled by whoever holds the client (reconnect, or the server is being stopped anyway).
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Takes this process's shared lock; throws when the server cannot be reached or shuts down meanwhile. */
export async function announcePresence(url: string, log: (m: string) => void): Promise<Presence> {
  let client = await connect(url);
  const state = { released: false };
  // Read through a function: a release may happen during any await, which narrowing of `state.released` cannot see.
  const isReleased = (): boolean => state.released;
  const hold = async (held: pg.Client): Promise<void> => {
    await held.query(`SELECT pg_advisory_lock_shared(${PRESENCE_KEY_SQL})`);
    // If someone ends this session (pg_terminate_backend, a restart), take the lock again on a new one.
    held.once('end', () => {
      if (!state.released)
        setTimeout(() => {
          void reacquire();
        }, RECONNECT_MS).unref();
    });
  };
  const reacquire = async (): Promise<void> => {
    if (state.released) return;
    try {
      const next = await connect(url);
      // Released while connecting: this session must not take the lock the stopping process just gave back.
      if (isReleased()) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
      await hold(next);
    } catch (error) {
      log(`could not announce this process to the embedded PostgreSQL (${String(error)}); retrying`);
      setTimeout(() => {
        void reacquire();
      }, RECONNECT_MS).unref();
    }
  };
  try {
    await hold(client);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    async release() {
      state.released = true;
      await client.query(`SELECT pg_advisory_unlock_shared(${PRESENCE_KEY_SQL})`).catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/**
 * A connection holding the lock exclusively when no other Ledgerport process holds it shared, else null. The caller
 * stops the server and lets the connection die with it, or ends it.
 */
export async function claimSoleUse(url: string): Promise<pg.Client | null> {
  const client = await connect(url);
  const result = await client.query<{ sole: boolean }>(`SELECT pg_try_advisory_lock(${PRESENCE_KEY_SQL}) AS sole`);
  if (result.rows[0]?.sole === true) return client;
  await client.end().catch(() => undefined);
  return null;
}
