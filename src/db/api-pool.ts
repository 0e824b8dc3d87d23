/**
 * The API's pool: a pg.Pool whose checkouts for an organisation's request pass its OrganizationGate first. Every
 * query of a request goes through `connect` (pg's `pool.query` checks out through it too), so no route can forget.
 */
import pg from 'pg';
import type { OrganizationGate } from './organization-gate.ts';
import { currentRequestScope, type RequestScope } from './request-scope.ts';

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: boolean | Error) => void) => void;

export class ApiPool extends pg.Pool {
  readonly gate: OrganizationGate;

  constructor(config: pg.PoolConfig, gate: OrganizationGate) {
    super(config);
    this.gate = gate;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    const checkout = this.#gatedConnect();
    if (callback === undefined) return checkout;
    checkout.then(
      (client) => {
        callback(undefined, client, (release) => {
          client.release(release);
        });
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), undefined, () => undefined);
      },
    );
    return undefined;
  }

  async #gatedConnect(): Promise<pg.PoolClient> {
    const scope = currentRequestScope();
    if (scope === undefined || scope.ended) return super.connect();
    await this.gate.enter(scope);
    let client: pg.PoolClient;
    try {
      client = await super.connect();
    } catch (error) {
      this.gate.leave(scope);
      throw error;
    }
    return this.#leavingOnRelease(client, scope);
  }

  #leavingOnRelease(client: pg.PoolClient, scope: RequestScope): pg.PoolClient {
    const release = client.release.bind(client);
    let released = false;
    client.release = (destroy?: boolean | Error) => {
      // pg-pool replaces release at each checkout; this one belongs to this checkout only.
      if (!released) {
        released = true;
        this.gate.leave(scope);
      }
      release(destroy);
    };
    return client;
  }
}

/**
 * Runs a read that scans every record of a connection within the organisation's costly-read slots
 * (src/db/organization-gate.ts); a pool without a gate (tests, the CLI) runs it at once.
 */
export function costlyRead<T>(pool: pg.Pool, organizationId: string, work: () => Promise<T>): Promise<T> {
  return pool instanceof ApiPool ? pool.gate.costly(organizationId, work) : work();
}

/**
 * Holds one of the organisation's large-answer slots (src/db/organization-gate.ts) until the returned function is
 * called with the answer's size; a pool without a gate gives a function that does nothing.
 */
export async function holdLargeAnswer(pool: pg.Pool, organizationId: string): Promise<(bytes?: number) => void> {
  return pool instanceof ApiPool ? pool.gate.holdLargeAnswer(organizationId) : () => undefined;
}

/** node-postgres's error when no connection came free within connectionTimeoutMillis. */
export function isPoolExhausted(error: unknown): boolean {
  return error instanceof Error && error.message === 'timeout exceeded when trying to connect';
}
