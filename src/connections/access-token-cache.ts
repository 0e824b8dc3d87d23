/**
 * Connections by access token, remembered per process for the data endpoints' hot path: a read then costs one query
 * (its list) instead of two. Every UPDATE or DELETE of a connection sends NOTIFY ledgerport_connections with its id
 * (a trigger, migration 0013), which drops it here whichever process made the change, so a disabled, re-authorised
 * or deleted connection is seen as such as soon as the notification arrives. CONNECTION_CACHE_SECONDS (default 5;
 * 0 turns the cache off) bounds how long an entry could outlive a notification that never came.
 *
 * Nothing is remembered while the LISTEN connection is down, everything is forgotten when it goes down, and a
 * lookup that overlapped an invalidation (or a new LISTEN) is not remembered: it may have read the row before the change.
 */
import { listenOn, type Listener } from '../db/listener.ts';
import type { Pool } from '../db/pool.ts';
import type { ConnectionRecord } from './types.ts';

export const CONNECTION_CHANNEL = 'ledgerport_connections';
const MAX_ENTRIES = 10_000;

interface Entry {
  connection: ConnectionRecord;
  until: number;
}

export class ConnectionCache {
  readonly #pool: Pool;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();
  #listener: Listener | null = null;
  #connecting: Promise<void> | null = null;
  #closed = false;
  /** Bumped by every invalidation and every new LISTEN: a lookup that saw it change is not remembered. */
  #generation = 0;

  constructor(pool: Pool, ttlSeconds: number) {
    this.#pool = pool;
    this.#ttlMs = ttlSeconds * 1000;
  }

  /** The connection under `key` (tenant and access-token hash), from memory while fresh, otherwise from `load`. */
  async get(key: string, load: () => Promise<ConnectionRecord | null>): Promise<ConnectionRecord | null> {
    if (this.#ttlMs === 0 || this.#closed) return load();
    if (!this.#listening()) {
      this.#entries.clear();
      this.#listen();
      return load();
    }
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.until > Date.now()) return entry.connection;
    const generation = this.#generation;
    const connection = await load();
    if (connection !== null && generation === this.#generation && this.#listening()) this.#remember(key, connection);
    else if (connection === null) this.#entries.delete(key);
    return connection;
  }

  /** Drops every entry of the connection (the notification's payload). */
  invalidate(connectionId: string): void {
    this.#generation += 1;
    for (const [key, entry] of this.#entries) if (entry.connection.id === connectionId) this.#entries.delete(key);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#entries.clear();
    await this.#connecting?.catch(() => undefined);
    const listener = this.#listener;
    this.#listener = null;
    await listener?.close();
  }

  /** Whether change notifications are being heard (and so whether anything is remembered). */
  get listening(): boolean {
    return this.#listening();
  }

  #listening(): boolean {
    return this.#listener?.alive ?? false;
  }

  #remember(key: string, connection: ConnectionRecord): void {
    if (this.#entries.size >= MAX_ENTRIES) {
      // Oldest first (insertion order): bounded, whatever tokens clients send.
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { connection, until: Date.now() + this.#ttlMs });
  }

  /** Starts listening in the background; until it is up, lookups go to the database. */
  #listen(): void {
    if (this.#connecting !== null || this.#closed) return;
    this.#connecting = (async () => {
      const listener = await listenOn(this.#pool, CONNECTION_CHANNEL, (connectionId) => {
        this.invalidate(connectionId);
      });
      if (this.#closed) {
        await listener.close();
        return;
      }
      this.#entries.clear();
      this.#generation += 1;
      this.#listener = listener;
    })()
      .catch(() => undefined)
      .finally(() => {
        this.#connecting = null;
      });
  }
}
