/**
 * An HTTP proxy that misbehaves on purpose, for fault tests: put between the
 * service and a platform stand-in, it decides per request (a ChaosPolicy)
 * whether to pass the answer on, hold it back (`delay`: longer than the
 * client's timeout, it is a hang the client must give up on), or drop the
 * connection: before forwarding (the platform never sees the request), after
 * the platform answered (a write is applied, its answer lost), or halfway
 * through the answer (status and headers, part of the body). `seededChaos` is
 * a seeded random policy, so a run's draws can be replayed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Rng } from '../../packages/sandbox/src/prng.ts';

export type ChaosAction =
  { kind: 'pass' } | { kind: 'drop-unsent' } | { kind: 'drop-answered' } | { kind: 'drop-midway' } | { kind: 'delay'; ms: number };

export interface ChaosRequest {
  /** 1 for the first request through the proxy. */
  n: number;
  method: string;
  path: string;
  idempotencyKey: string | null;
}

export type ChaosPolicy = (request: ChaosRequest) => ChaosAction;

export interface ChaosStats {
  requests: number;
  passed: number;
  droppedUnsent: number;
  droppedAnswered: number;
  droppedMidway: number;
  delayed: number;
  /** Delayed answers whose client hung up before the delay ended (it gave up: its own timeout). */
  abandoned: number;
  /** Requests carrying an Idempotency-Key that an earlier request carried: a client sending a write again. */
  repeatedKeys: number;
}

/** Drops `drop` of the requests (the three ways alike) and delays `delay` of them by `delayMs` (inclusive range). */
export function seededChaos(seed: number, rates: { drop: number; delay: number; delayMs: readonly [number, number] }): ChaosPolicy {
  const rng = new Rng(seed);
  const drops = ['drop-unsent', 'drop-answered', 'drop-midway'] as const;
  return () => {
    const roll = rng.next();
    if (roll < rates.drop) return { kind: rng.pick(drops) };
    if (roll < rates.drop + rates.delay) return { kind: 'delay', ms: rng.int(rates.delayMs[0], rates.delayMs[1]) };
    return { kind: 'pass' };
  };
}

/** Hop-by-hop headers are the proxy's own business on each side. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

function forwardHeaders(headers: http.IncomingHttpHeaders, host?: string): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  if (host !== undefined) out.host = host;
  return out;
}

export class ChaosProxy {
  readonly stats: ChaosStats = {
    requests: 0,
    passed: 0,
    droppedUnsent: 0,
    droppedAnswered: 0,
    droppedMidway: 0,
    delayed: 0,
    abandoned: 0,
    repeatedKeys: 0,
  };
  /** Each request and what was done to it, in order. */
  readonly log: (ChaosRequest & { action: ChaosAction['kind'] })[] = [];
  private readonly target: URL;
  private readonly policy: ChaosPolicy;
  private readonly keys = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly server = http.createServer((request, response) => {
    this.handle(request, response);
  });

  constructor(target: string, policy: ChaosPolicy) {
    this.target = new URL(target);
    this.policy = policy;
  }

  /** Listens on a free port of 127.0.0.1; the proxy's base URL. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const key = request.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? key : null;
    const described: ChaosRequest = {
      n: ++this.stats.requests,
      method: request.method ?? 'GET',
      path: (request.url ?? '/').split('?')[0] ?? '/',
      idempotencyKey,
    };
    if (idempotencyKey !== null) {
      if (this.keys.has(idempotencyKey)) this.stats.repeatedKeys += 1;
      this.keys.add(idempotencyKey);
    }
    const action = this.policy(described);
    this.log.push({ ...described, action: action.kind });
    if (action.kind === 'drop-unsent') {
      this.stats.droppedUnsent += 1;
      request.socket.destroy();
      return;
    }
    const upstream = http.request(
      new URL(request.url ?? '/', this.target),
      {
        method: request.method,
        headers: forwardHeaders(request.headers, this.target.host),
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          this.answer(response, answer, Buffer.concat(chunks), action);
        });
        answer.on('error', () => response.destroy());
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  }

  /** What the client gets, once the platform's whole answer is here. */
  private answer(response: http.ServerResponse, answer: http.IncomingMessage, body: Buffer, action: ChaosAction): void {
    const headers = { ...forwardHeaders(answer.headers), 'content-length': String(body.length) };
    const pass = (): void => {
      response.writeHead(answer.statusCode ?? 502, headers);
      response.end(body);
    };
    switch (action.kind) {
      case 'drop-answered':
        this.stats.droppedAnswered += 1;
        response.socket?.destroy();
        return;
      case 'drop-midway':
        this.stats.droppedMidway += 1;
        response.writeHead(answer.statusCode ?? 502, headers);
        response.write(body.subarray(0, Math.floor(body.length / 2)), () => {
          response.socket?.destroy();
        });
        return;
      case 'delay': {
        this.stats.delayed += 1;
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          pass();
        }, action.ms);
        this.timers.add(timer);
        response.on('close', () => {
          if (response.writableFinished || !this.timers.delete(timer)) return;
          clearTimeout(timer);
          this.stats.abandoned += 1;
        });
        return;
      }
      default:
        this.stats.passed += 1;
        pass();
    }
  }
}
