/**
 * What slow or greedy clients can hold (issue 19, item 5). Node's timeouts bound how long one request may take
 * to arrive (a body trickled at 1 byte/s is cut with 408 after HTTP_REQUEST_TIMEOUT_SECONDS); this file bounds
 * how many sockets may be open at once:
 * - per client address (an IPv6 client counts by its /64, which one host usually owns whole), only the sockets that
 *   hold something of the server: a socket not yet past its first request (its headers or body still arriving) or
 *   running a request. An idle keep-alive socket between requests is not counted (issue 32: a client opening a new
 *   connection per request left up to 72 s of idle sockets behind it and was refused after 64 requests). Over the cap
 *   a new socket is closed at once, before a byte of it is read, so one client cannot take the slots of everyone
 *   else. A socket the address already holds may start a new request without being refused (it is counted again
 *   from then): what idle sockets add is bounded by the keep-alive timeout (5 s) and the total cap below;
 * - in all, well below the process's open-file limit, so the database pool, pg-boss and webhook sockets never meet
 *   EMFILE. At that cap a new connection takes the place of the oldest socket that is not running a request
 *   (still sending its request, or idle between requests): a health check or a fresh client still gets in while
 *   slow senders hold the slots, and a socket whose request is being answered is never cut. Only when every socket
 *   is running a request is the newcomer refused.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { randomUUID } from 'node:crypto';
import type { HttpLimits } from '../config.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { countThrottled, httpConnectionsShed } from '../metrics/registry.ts';
import { rawErrorResponse } from './client-error.ts';

export type ShedReason = 'client_limit' | 'total_limit' | 'evicted';

interface Tracked {
  client: string;
  /** Counted against its address: not yet past its first request, or running one. */
  busy: boolean;
  /** When the socket connected or began its latest request: the oldest idle or receiving one goes first. */
  since: number;
  request: IncomingMessage | null;
  response: ServerResponse | null;
}

/** The address a cap counts by: IPv4 (also when mapped into IPv6) as is, IPv6 by its /64. */
export function clientKey(remoteAddress: string): string {
  try {
    const address = ipaddr.process(remoteAddress);
    if (address.kind() === 'ipv4') return address.toString();
    const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
    return `${parts.join(':')}::/64`;
  } catch {
    return remoteAddress;
  }
}

/** Whether the socket may be cut without cutting an answer: no request yet, body still arriving, or idle after one. */
function sheddable(entry: Tracked): boolean {
  if (entry.request === null) return true;
  if (!entry.request.complete) return true;
  return entry.response?.writableFinished === true;
}

/** Node's own timeouts, checked every second (or sooner for short test settings) instead of every 30 s. */
export function httpServerOptions(limits: HttpLimits): { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number } {
  const shortest = Math.min(limits.requestTimeoutMs, limits.headersTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(shortest / 4))),
  };
}

export interface ConnectionGuard {
  /** Sockets open now in all, and those of one client address that are not idle between requests. */
  open(): number;
  openFor(remoteAddress: string): number;
}

export function guardConnections(
  server: Server,
  limits: Pick<HttpLimits, 'maxConnections' | 'maxConnectionsPerClient'>,
  onShed: (reason: ShedReason, client: string) => void = () => undefined,
): ConnectionGuard {
  const sockets = new Map<Socket, Tracked>();
  const perClient = new Map<string, number>();

  const count = (client: string): void => {
    perClient.set(client, (perClient.get(client) ?? 0) + 1);
  };
  const uncount = (client: string): void => {
    const left = (perClient.get(client) ?? 1) - 1;
    if (left <= 0) perClient.delete(client);
    else perClient.set(client, left);
  };

  const release = (socket: Socket): void => {
    const entry = sockets.get(socket);
    if (entry === undefined) return;
    sockets.delete(socket);
    if (entry.busy) uncount(entry.client);
  };

  const oldestSheddable = (): Socket | null => {
    let oldest: [Socket, Tracked] | null = null;
    for (const pair of sockets) {
      if (sheddable(pair[1]) && (oldest === null || pair[1].since < oldest[1].since)) oldest = pair;
    }
    return oldest?.[0] ?? null;
  };

  server.on('connection', (socket: Socket) => {
    const client = clientKey(socket.remoteAddress ?? '');
    if (limits.maxConnectionsPerClient > 0 && (perClient.get(client) ?? 0) >= limits.maxConnectionsPerClient) {
      refuse(
        socket,
        new ServiceError(
          'RATE_LIMIT_EXCEEDED',
          `Your address already has ${limits.maxConnectionsPerClient} connections sending or awaiting a request on this server; send fewer requests at once, and retry.`,
          { source: 'service', reason: 'client_connections' },
          { 'Retry-After': '1' },
        ),
      );
      countThrottled('connection_cap');
      onShed('client_limit', client);
      return;
    }
    if (sockets.size >= limits.maxConnections) {
      const victim = oldestSheddable();
      if (victim === null) {
        refuse(
          socket,
          new ServiceError(
            'SERVICE_UNAVAILABLE',
            'The server holds as many connections as it can; retry in a moment.',
            { source: 'service' },
            { 'Retry-After': '1' },
          ),
        );
        onShed('total_limit', client);
        return;
      }
      const victimClient = sockets.get(victim)?.client ?? '';
      release(victim);
      victim.destroy();
      onShed('evicted', victimClient);
    }
    sockets.set(socket, { client, busy: true, since: Date.now(), request: null, response: null });
    count(client);
    socket.once('close', () => {
      release(socket);
    });
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const entry = sockets.get(request.socket);
    if (entry === undefined) return;
    entry.since = Date.now();
    entry.request = request;
    entry.response = response;
    if (!entry.busy) {
      entry.busy = true;
      count(entry.client);
    }
    // Answered: idle until its next request, and no longer counted against its address.
    response.once('finish', () => {
      if (sockets.get(request.socket) !== entry || entry.response !== response || !entry.busy) return;
      entry.busy = false;
      uncount(entry.client);
    });
  });

  return {
    open: () => sockets.size,
    openFor: (remoteAddress) => perClient.get(clientKey(remoteAddress)) ?? 0,
  };
}

/**
 * A refused socket gets a complete answer in the spec's body (a client sees 429 or 503 and what to do, not a reset
 * connection), written before anything of its request is read, and is destroyed once that is flushed or after a
 * second at most: a refused socket never stays open.
 */
function refuse(socket: Socket, error: ServiceError): void {
  const timer = setTimeout(() => {
    socket.destroy();
  }, 1000);
  timer.unref();
  socket.on('error', () => {
    socket.destroy();
  });
  socket.end(rawErrorResponse(error, randomUUID(), error.headers), () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

const SHED_LOG_INTERVAL_MS = 60_000;

/** The caps on the application's server, counted in /metrics and logged at most once a minute (a flood must not flood the log). */
export function limitConnections(server: Server, limits: HttpLimits, warn: (message: string) => void): ConnectionGuard {
  let lastLogged = 0;
  let unlogged = 0;
  return guardConnections(server, limits, (reason, client) => {
    httpConnectionsShed.inc({ reason });
    unlogged += 1;
    const now = Date.now();
    if (now - lastLogged < SHED_LOG_INTERVAL_MS) return;
    warn(
      `closed ${unlogged} client socket(s) over the connection caps (latest: ${reason}, client ${client}; ` +
        `HTTP_MAX_CONNECTIONS=${limits.maxConnections}, HTTP_MAX_CONNECTIONS_PER_CLIENT=${limits.maxConnectionsPerClient})`,
    );
    lastLogged = now;
    unlogged = 0;
  });
}
