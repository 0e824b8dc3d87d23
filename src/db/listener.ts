/**
 * A dedicated LISTEN connection. It is taken from the pool and never given back
 * to it: on close, or when the connection fails (server restart, terminated
 * backend, dropped database), it is destroyed exactly once, and errors that
 * arrive after that are swallowed instead of crashing the process.
 */
import type { Notification } from 'pg';
import type { Pool } from './pool.ts';
import { outsideRequestScope } from './request-scope.ts';

export interface Listener {
  /** False once the connection failed or was closed: listen again to be woken again. */
  readonly alive: boolean;
  close(): Promise<void>;
}

/** `channel` is one of the service's own constant channel names (it is written into the SQL). */
export async function listenOn(pool: Pool, channel: string, onNotify: (payload: string) => void): Promise<Listener> {
  // Held for the process's life: it belongs to no request, even when a request's first need opened it.
  const client = await outsideRequestScope(() => pool.connect());
  let alive = true;
  const notify = (message: Notification): void => {
    onNotify(message.payload ?? '');
  };
  const finish = (): void => {
    if (!alive) return;
    alive = false;
    client.removeListener('notification', notify);
    client.release(true);
  };
  client.on('notification', notify);
  // Kept for the client's whole life: a late error on a finished connection must not go unhandled.
  client.on('error', finish);
  try {
    await client.query(`LISTEN ${channel}`);
  } catch (error) {
    finish();
    throw error;
  }
  return {
    get alive() {
      return alive;
    },
    async close() {
      if (!alive) return;
      await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
      finish();
    },
  };
}
