/**
 * Which organisation's request the current code runs for, so the API pool can count that organisation's requests
 * holding connections (src/db/organization-gate.ts). Set by the HTTP edge for authenticated requests once
 * authentication and the rate limit are done (src/http/hooks.ts); background work has no scope and is not counted.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScope {
  readonly organizationId: string;
  /** Connections this request holds now; the organisation's slot is held while this is above 0. */
  connections: number;
  /** The slot, taken or being taken; null when the request holds none. */
  slot: Promise<void> | null;
  /** The response is sent (or the client went away): the slot is given back and later queries are not counted. */
  ended: boolean;
  /** Told the connection the request turned out to be about (src/http/hooks.ts names it on the request's log lines). */
  onConnection?: (connectionId: string) => void;
  /** The connection the request named (by access token or id), for its row of the request log (src/http/request-log.ts). */
  connectionId: string | null;
}

const storage = new AsyncLocalStorage<RequestScope>();

export function newRequestScope(organizationId: string): RequestScope {
  return { organizationId, connections: 0, slot: null, ended: false, connectionId: null };
}

/** Runs `work`, and everything it starts, as part of the request `scope`. */
export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}

/** Runs `work` outside any request: for connections that outlive the request that happened to open them (LISTEN). */
export function outsideRequestScope<T>(work: () => T): T {
  return storage.exit(work);
}

/**
 * The current request (if any) is about this connection: its log lines name it from here on, and its row of the
 * request log. The first one counts: a request that resolves its connection twice is bound once; outside a request
 * this does nothing.
 */
export function noteRequestConnection(connectionId: string): void {
  const scope = storage.getStore();
  if (scope?.connectionId !== null) return;
  scope.connectionId = connectionId;
  if (!scope.ended) scope.onConnection?.(connectionId);
}
