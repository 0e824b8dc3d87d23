import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformError } from './errors.ts';
import { createPlatformHttp, type AttemptEvent, type FetchLike, type PlatformHttpOptions } from './http.ts';
import { createLimiterPool, type Sleep } from './limiter.ts';
import { DailyBudgetSpent } from './daily-budget.ts';
import type { SharedCall, SharedLimiter } from './shared-limits.ts';

/** Virtual time: sleeps resolve in due order, instantly, and are recorded. */
function fakeClock(start = 0): { now: () => number; sleep: Sleep; delays: number[] } {
  let time = start;
  const timers: { at: number; fire: () => void }[] = [];
  const delays: number[] = [];
  let scheduled = false;
  const tick = (): void => {
    scheduled = false;
    timers.sort((a, b) => a.at - b.at);
    const next = timers.shift();
    if (next === undefined) return;
    time = Math.max(time, next.at);
    next.fire();
    schedule();
  };
  const schedule = (): void => {
    if (scheduled || timers.length === 0) return;
    scheduled = true;
    setImmediate(tick);
  };
  const sleep: Sleep = (ms, signal) => {
    delays.push(ms);
    return new Promise<void>((resolve, reject) => {
      signal?.throwIfAborted();
      const timer = { at: time + ms, fire: resolve };
      timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          timers.splice(timers.indexOf(timer), 1);
          reject(new Error('aborted'));
        },
        { once: true },
      );
      schedule();
    });
  };
  return { now: () => time, sleep, delays };
}

type Reply = Response | Error | (() => Response | Error | Promise<Response | Error>);

/** A fetch that plays the given replies in order (the last one repeats) and records calls. */
function scripted(...replies: Reply[]): FetchLike & { calls: { url: string; init: RequestInit }[] } {
  const calls: { url: string; init: RequestInit }[] = [];
  const fn = async (url: string, init: RequestInit): Promise<Response> => {
    calls.push({ url, init });
    const reply = replies[Math.min(calls.length, replies.length) - 1];
    if (reply === undefined) throw new Error('no reply scripted');
    const value = typeof reply === 'function' ? await reply() : reply;
    if (value instanceof Error) throw value;
    return value.clone();
  };
  return Object.assign(fn, { calls });
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const failure = (code: string): TypeError =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code }) });

const timedOut = (): DOMException => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

function client(
  fetchImpl: FetchLike,
  extra: PlatformHttpOptions = {},
): { http: ReturnType<typeof createPlatformHttp>; clock: ReturnType<typeof fakeClock> } {
  const clock = fakeClock(extra.now?.() ?? 0);
  const http = createPlatformHttp({ fetch: fetchImpl, sleep: clock.sleep, now: clock.now, random: () => 0.5, ...extra });
  return { http, clock };
}

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof PlatformError)) throw new Error(`expected a PlatformError, got ${String(error)}`);
  return error;
}

const GET = { method: 'GET', url: 'https://api.example.test/v1/items', idempotent: true } as const;
const POST = { method: 'POST', url: 'https://api.example.test/v1/items', idempotent: false, body: { name: 'x' } } as const;

describe('requests', () => {
  it('sends JSON and form bodies and parses JSON answers', async () => {
    const fetchImpl = scripted(json(200, { ok: true }));
    const { http } = client(fetchImpl);
    const res = await http.request({ ...POST, query: { page: 2, skip: undefined } });
    expect(res).toMatchObject({ status: 200, body: { ok: true }, attempts: 1 });
    const first = fetchImpl.calls[0];
    expect(first?.url).toBe('https://api.example.test/v1/items?page=2');
    expect(first?.init.body).toBe('{"name":"x"}');
    expect(first?.init.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json' });

    await http.request({
      method: 'POST',
      url: 'https://auth.example.test/token',
      idempotent: false,
      form: { grant_type: 'refresh_token', refresh_token: 'a b' },
    });
    expect(fetchImpl.calls[1]?.init.body).toBe('grant_type=refresh_token&refresh_token=a+b');
    expect(fetchImpl.calls[1]?.init.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded' });
  });

  it('returns accepted non-2xx statuses instead of throwing', async () => {
    const { http } = client(scripted(json(404, { message: 'gone' })));
    await expect(http.request({ ...GET, acceptStatuses: [404] })).resolves.toMatchObject({ status: 404, body: { message: 'gone' } });
  });

  it('lets the connector reclassify a platform answer', async () => {
    const { http } = client(scripted(json(400, { message: 'Your subscription has expired' })));
    const error = await rejection(
      http.request({
        ...POST,
        classifyError: (e) =>
          /subscription/i.test(e.platformMessage) ? new PlatformError({ kind: 'billing', httpStatus: e.httpStatus, message: e.platformMessage }) : e,
      }),
    );
    expect(error.kind).toBe('billing');
    const thrown = await rejection(
      client(scripted(json(409, { message: 'Name in use' }))).http.request({
        ...POST,
        classifyError: (e) => {
          throw new PlatformError({ kind: 'duplicate', httpStatus: 409, message: e.platformMessage, duplicateProperty: 'name' });
        },
      }),
    );
    expect(thrown).toMatchObject({ kind: 'duplicate', duplicateProperty: 'name' });
  });

  it('throws the abort reason when cancelled before any attempt', async () => {
    const fetchImpl = scripted(json(200, {}));
    const reason = new Error('job cancelled');
    await expect(client(fetchImpl).http.request({ ...GET, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(fetchImpl.calls).toHaveLength(0);
  });
});

describe('retries', () => {
  it('honours Retry-After in seconds', async () => {
    const fetchImpl = scripted(json(429, { message: 'slow' }, { 'retry-after': '7' }), json(200, []));
    const { http, clock } = client(fetchImpl);
    await expect(http.request(GET)).resolves.toMatchObject({ status: 200, attempts: 2 });
    expect(clock.delays).toEqual([7000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const start = Date.parse('2025-03-01T10:00:00Z');
    const fetchImpl = scripted(json(503, {}, { 'retry-after': new Date(start + 12_000).toUTCString() }), json(200, []));
    const { http, clock } = client(fetchImpl, { now: () => start });
    await http.request(GET);
    expect(clock.delays).toEqual([12_000]);
  });

  it('does not wait out a Retry-After longer than maxRetryAfterMs', async () => {
    const fetchImpl = scripted(json(429, { message: 'daily limit' }, { 'retry-after': '3600' }));
    const { http, clock } = client(fetchImpl);
    const error = await rejection(http.request(GET));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 3_600_000 });
    expect(fetchImpl.calls).toHaveLength(1);
    expect(clock.delays).toEqual([]);
  });

  it('backs off exponentially with full jitter', async () => {
    const { http, clock } = client(scripted(json(503, {})), { maxAttempts: 5 });
    await rejection(http.request(GET));
    expect(clock.delays).toEqual([250, 500, 1000, 2000]); // random() = 0.5 of 500·2^n

    const random = client(scripted(json(503, {})), { maxAttempts: 10, random: Math.random });
    await rejection(random.http.request(GET));
    random.clock.delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(Math.min(30_000, 500 * 2 ** i));
    });
    const nearOne = client(scripted(json(503, {})), { maxAttempts: 10, random: () => 0.999999 });
    await rejection(nearOne.http.request(GET));
    expect(nearOne.clock.delays.slice(-2)).toEqual([29_999, 29_999]); // capped at 30 s
  });

  it('gives up after maxAttempts with the last error', async () => {
    const fetchImpl = scripted(json(503, { message: 'first' }), json(502, { message: 'second' }), json(500, { message: 'last' }));
    const { http } = client(fetchImpl, { maxAttempts: 3 });
    const error = await rejection(http.request(GET));
    expect(error).toMatchObject({ kind: 'server', httpStatus: 500, platformMessage: 'last' });
    expect(fetchImpl.calls).toHaveLength(3);
  });

  it('does not retry final errors', async () => {
    const fetchImpl = scripted(json(400, { message: 'bad' }));
    const { http } = client(fetchImpl);
    expect((await rejection(http.request(GET))).kind).toBe('bad_request');
    expect(fetchImpl.calls).toHaveLength(1);
  });

  it('retries idempotent requests on timeouts and dropped connections', async () => {
    const fetchImpl = scripted(timedOut(), failure('ECONNRESET'), json(200, { ok: true }));
    const { http } = client(fetchImpl);
    await expect(http.request(GET)).resolves.toMatchObject({ attempts: 3 });
  });

  it.each([
    ['a 500', json(500, { message: 'boom' }), 'server'],
    ['a 429', json(429, { message: 'slow' }, { 'retry-after': '1' }), 'rate_limited'],
    ['a timeout', timedOut(), 'timeout'],
    ['a reset connection', failure('ECONNRESET'), 'network'],
  ] as const)('never retries a non-idempotent request after %s', async (_label, reply, kind) => {
    const fetchImpl = scripted(reply, json(201, {}));
    const { http } = client(fetchImpl);
    const error = await rejection(http.request(POST));
    expect(error.kind).toBe(kind);
    expect(fetchImpl.calls).toHaveLength(1);
  });

  it('retries a non-idempotent request that never left (connection refused, DNS)', async () => {
    const fetchImpl = scripted(failure('ECONNREFUSED'), failure('EAI_AGAIN'), json(201, { id: '7' }));
    const { http } = client(fetchImpl);
    await expect(http.request(POST)).resolves.toMatchObject({ status: 201, attempts: 3 });
  });

  it('gives up early when the next attempt would pass the deadline', async () => {
    const fetchImpl = scripted(json(503, {}, { 'retry-after': '5' }));
    const { http } = client(fetchImpl);
    const error = await rejection(http.request({ ...GET, deadline: 4000 }));
    expect(error.httpStatus).toBe(503);
    expect(fetchImpl.calls).toHaveLength(1);
  });

  it('stops backing off when the caller aborts, reporting the platform failure', async () => {
    const controller = new AbortController();
    const fetchImpl = scripted(() => {
      queueMicrotask(() => {
        controller.abort();
      });
      return json(503, { message: 'down' });
    });
    const { http } = client(fetchImpl);
    const error = await rejection(http.request({ ...GET, signal: controller.signal }));
    expect(error.platformMessage).toBe('down');
    expect(fetchImpl.calls).toHaveLength(1);
  });

  it('reports every attempt to the observer', async () => {
    const events: AttemptEvent[] = [];
    const { http } = client(scripted(json(503, {}), json(200, {})), {
      onAttempt: (e) => {
        events.push(e);
        throw new Error('ignored');
      },
    });
    await http.request({ ...GET, query: { api_key: 'secret' } });
    expect(events.map((e) => [e.attempt, e.status, e.retryInMs, e.error?.kind ?? null])).toEqual([
      [1, 503, 250, 'server'],
      [2, 200, null, null],
    ]);
    expect(events[0]?.url).toBe('https://api.example.test/v1/items');
  });
});

describe('limiter', () => {
  it('never runs more than concurrentRequests at once', async () => {
    let inFlight = 0;
    let peak = 0;
    const fetchImpl = scripted(async () => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
      return json(200, {});
    });
    const clock = fakeClock();
    const limiters = createLimiterPool(clock);
    const options = { fetch: fetchImpl, ...clock, limiters, limitKey: 'conn-1', limits: { requestsPerMinute: null, concurrentRequests: 3 } };
    const a = createPlatformHttp(options);
    const b = createPlatformHttp(options); // same key: same limiter
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).request(GET)));
    expect(fetchImpl.calls).toHaveLength(12);
    expect(peak).toBe(3);
  });

  it('spaces requests to requestsPerMinute', async () => {
    const clock = fakeClock();
    const starts: number[] = [];
    const fetchImpl = scripted(() => {
      starts.push(clock.now());
      return json(200, {});
    });
    const http = createPlatformHttp({
      fetch: fetchImpl,
      ...clock,
      limiters: createLimiterPool(clock),
      limitKey: 'conn-2',
      limits: { requestsPerMinute: 60, concurrentRequests: null },
    });
    await Promise.all([1, 2, 3, 4].map(() => http.request(GET)));
    expect(starts).toEqual([0, 1000, 2000, 3000]);
  });

  it('keeps different keys apart', async () => {
    const clock = fakeClock();
    const starts: number[] = [];
    const fetchImpl = scripted(() => {
      starts.push(clock.now());
      return json(200, {});
    });
    const limiters = createLimiterPool(clock);
    const limits = { requestsPerMinute: 6, concurrentRequests: 1 };
    const one = createPlatformHttp({ fetch: fetchImpl, ...clock, limiters, limitKey: 'conn-a', limits });
    const two = createPlatformHttp({ fetch: fetchImpl, ...clock, limiters, limitKey: 'conn-b', limits });
    await Promise.all([one.request(GET), two.request(GET)]);
    expect(starts).toEqual([0, 0]);
  });
});

describe('shared limits', () => {
  /** A stand-in of the shared limiter: grants `grants` takes, then refuses with a spent budget. */
  function sharedStub(grants: number): SharedLimiter & { takes: SharedCall[]; settled: unknown[] } {
    const takes: SharedCall[] = [];
    const settled: unknown[] = [];
    return {
      takes,
      settled,
      take(call) {
        takes.push(call);
        if (takes.length > grants) return Promise.reject(new DailyBudgetSpent('TESTBOOKS', grants, new Date(Date.now() + 3600_000)));
        return Promise.resolve({
          waitedMs: 0,
          settle: (response) => {
            settled.push(response.body);
            return Promise.resolve();
          },
        });
      },
    };
  }

  it('takes capacity before every attempt, retries included, and settles each answer', async () => {
    const fetchImpl = scripted(json(503, {}), json(200, { ok: true }));
    const sharedLimiter = sharedStub(5);
    const http = createPlatformHttp({ fetch: fetchImpl, ...fakeClock(), baseDelayMs: 1, sharedLimiter });
    await http.request({ ...GET, operation: 'list invoices', cost: 7 });
    expect(sharedLimiter.takes).toEqual([
      { operation: 'list invoices', cost: 7 },
      { operation: 'list invoices', cost: 7 },
    ]);
    expect(sharedLimiter.settled).toEqual([{ ok: true }]);
  });

  it('sends nothing once the budget is spent, and says so rather than the failure before it', async () => {
    const fetchImpl = scripted(json(503, {}), json(200, {}));
    const http = createPlatformHttp({ fetch: fetchImpl, ...fakeClock(), baseDelayMs: 1, sharedLimiter: sharedStub(1) });
    await expect(http.request(GET)).rejects.toBeInstanceOf(DailyBudgetSpent);
    expect(fetchImpl.calls).toHaveLength(1);
  });
});

describe('real fetch against a local server', () => {
  let server: Server;
  let base = '';
  const hits = new Map<string, number>();

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const path = req.url ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (path.startsWith('/hang')) return; // never answers
      if (path.startsWith('/drop')) {
        req.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        res.writeHead(path.startsWith('/limited') ? 429 : 200, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ method: req.method, type: req.headers['content-type'], body: Buffer.concat(chunks).toString(), message: 'echo' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });

  const real = (extra: PlatformHttpOptions = {}): ReturnType<typeof createPlatformHttp> =>
    createPlatformHttp({ sleep: () => Promise.resolve(), timeoutMs: 150, maxAttempts: 3, ...extra });

  it('round-trips JSON', async () => {
    const res = await real().request({ method: 'PUT', url: `${base}/echo`, idempotent: true, body: { a: 1 } });
    expect(res.body).toEqual({ method: 'PUT', type: 'application/json', body: '{"a":1}', message: 'echo' });
  });

  it('classifies a real 429 with its headers', async () => {
    const error = await rejection(real({ maxAttempts: 1 }).request({ method: 'GET', url: `${base}/limited`, idempotent: true }));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 1000, platformMessage: 'echo' });
  });

  it('times out each attempt and retries reads', async () => {
    const error = await rejection(real().request({ method: 'GET', url: `${base}/hang-get`, idempotent: true }));
    expect(error.kind).toBe('timeout');
    expect(error.indeterminate).toBe(true);
    expect(hits.get('/hang-get')).toBe(3);
  });

  it('does not retry a timed-out create', async () => {
    const error = await rejection(real().request({ method: 'POST', url: `${base}/hang-post`, idempotent: false, body: {} }));
    expect(error.kind).toBe('timeout');
    expect(hits.get('/hang-post')).toBe(1);
  });

  it('reports a write cancelled mid-flight as indeterminate', async () => {
    const error = await rejection(
      real({ timeoutMs: 5000 }).request({
        method: 'POST',
        url: `${base}/hang-cancel`,
        idempotent: false,
        body: {},
        signal: AbortSignal.timeout(100),
      }),
    );
    expect(error).toMatchObject({ kind: 'timeout', indeterminate: true });
    expect(hits.get('/hang-cancel')).toBe(1);
  });

  it('classifies a dropped connection as a network failure after sending', async () => {
    const read = await rejection(real().request({ method: 'GET', url: `${base}/drop-get`, idempotent: true }));
    expect(read).toMatchObject({ kind: 'network', requestSent: true });
    expect(hits.get('/drop-get')).toBe(3);
    const write = await rejection(real().request({ method: 'POST', url: `${base}/drop-post`, idempotent: false, body: {} }));
    expect(write.indeterminate).toBe(true);
    expect(hits.get('/drop-post')).toBe(1);
  });

  it('retries a create on connection refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) =>
      closed.close(() => {
        resolve();
      }),
    );
    const events: AttemptEvent[] = [];
    const error = await rejection(
      real({ onAttempt: (e) => events.push(e) }).request({ method: 'POST', url: `http://127.0.0.1:${port}/x`, idempotent: false, body: {} }),
    );
    expect(error).toMatchObject({ kind: 'network', platformCode: 'ECONNREFUSED', requestSent: false });
    expect(events).toHaveLength(3);
  });
});
