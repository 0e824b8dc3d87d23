/**
 * The shared client's transport hooks: a signature made afresh for every attempt, XML bodies and answers through
 * xml.ts, and 2xx answers a connector's classifier calls errors.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PlatformError } from './errors.ts';
import { createPlatformHttp, requestClassified, type FetchLike, type PlatformHttp } from './http.ts';

function recordingFetch(...replies: (() => Response)[]): FetchLike & { sent: { url: string; headers: Record<string, string>; body: unknown }[] } {
  const sent: { url: string; headers: Record<string, string>; body: unknown }[] = [];
  const fn = (url: string, init: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init.headers));
    sent.push({ url, headers, body: init.body });
    const reply = replies[Math.min(sent.length, replies.length) - 1];
    return reply === undefined ? Promise.reject(new Error('no reply')) : Promise.resolve(reply());
  };
  return Object.assign(fn, { sent });
}

const noWait = { sleep: () => Promise.resolve(), random: () => 0 };

describe('transport: per-attempt signing', () => {
  it('signs every attempt afresh: a retried read carries a new nonce and signature', async () => {
    const fetch = recordingFetch(
      () => new Response('busy', { status: 503 }),
      () => Response.json({ ok: true }),
    );
    const http = createPlatformHttp({ fetch, ...noWait });
    const seen: string[] = [];
    await http.request({
      method: 'GET',
      url: 'https://api.example.com/records',
      query: { page: 2 },
      idempotent: true,
      sign: (request) => {
        seen.push(request.url.href);
        const nonce = randomBytes(8).toString('hex');
        return { Authorization: `Sig nonce="${nonce}"` };
      },
    });
    expect(fetch.sent).toHaveLength(2);
    const [first, second] = fetch.sent.map((call) => call.headers.authorization);
    expect(first).toMatch(/^Sig nonce="[0-9a-f]{16}"$/);
    expect(second).toMatch(/^Sig nonce="[0-9a-f]{16}"$/);
    expect(second).not.toBe(first);
    // The signer sees the URL as sent, query included.
    expect(seen).toEqual(['https://api.example.com/records?page=2', 'https://api.example.com/records?page=2']);
  });
});

describe('transport: XML', () => {
  const soap = '<?xml version="1.0"?><soap:Envelope xmlns:soap="s"><soap:Body><Answer><Id>007</Id></Answer></soap:Body></soap:Envelope>';

  it('sends an XML body and parses an XML answer with text kept as written', async () => {
    const fetch = recordingFetch(() => new Response(soap, { headers: { 'content-type': 'text/xml' } }));
    const http = createPlatformHttp({ fetch, ...noWait });
    const answer = await http.request({
      method: 'POST',
      url: 'https://api.example.com/soap',
      xml: { 'soap:Envelope': { '@_xmlns:soap': 's', 'soap:Body': { Ask: { Id: '007' } } } },
      idempotent: true,
      responseType: 'xml',
      xmlRead: { removeNSPrefix: true },
    });
    expect(fetch.sent[0]?.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(fetch.sent[0]?.body).toBe(
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="s"><soap:Body><Ask><Id>007</Id></Ask></soap:Body></soap:Envelope>',
    );
    expect(answer.body).toEqual({ Envelope: { Body: { Answer: { Id: '007' } } } });
  });

  it('classifies an answer that is not well formed as a server error, retried like a 5xx for reads', async () => {
    const fetch = recordingFetch(() => new Response('<Answer><Id>1</Id>', { headers: { 'content-type': 'text/xml' } }));
    const http = createPlatformHttp({ fetch, ...noWait, maxAttempts: 2 });
    const failed = await http
      .request({ method: 'GET', url: 'https://api.example.com/x', idempotent: true, responseType: 'xml' })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PlatformError);
    expect(failed).toMatchObject({ kind: 'server', httpStatus: 200, requestSent: true });
    expect(fetch.sent).toHaveLength(2);
  });
});

describe('transport: errors inside a 2xx answer', () => {
  const throttled = (retryAfterMs: number) => new PlatformError({ kind: 'rate_limited', httpStatus: 200, message: 'THROTTLED', retryAfterMs });
  const classify = (answer: { body: unknown }) =>
    answer.body === 'throttled'
      ? throttled(5)
      : answer.body === 'denied'
        ? new PlatformError({ kind: 'forbidden', httpStatus: 200, message: 'no' })
        : null;

  function answering(...bodies: unknown[]): PlatformHttp & { calls: number } {
    const fake = {
      calls: 0,
      request: () => {
        fake.calls += 1;
        return Promise.resolve({ status: 200, headers: {}, body: bodies[Math.min(fake.calls, bodies.length) - 1] });
      },
    };
    return fake;
  }

  it("waits out what the connector's classifier calls retryable, and gives up after the attempts", async () => {
    const waits: number[] = [];
    const sleep = (ms: number) => (waits.push(ms), Promise.resolve());
    const http = answering('throttled', 'throttled', 'data');
    const request = { method: 'POST' as const, url: 'https://x', idempotent: true };
    expect((await requestClassified(http, request, classify, { sleep })).body).toBe('data');
    expect([http.calls, waits]).toEqual([3, [5, 5]]);
    const always = answering('throttled');
    await expect(requestClassified(always, request, classify, { sleep, attempts: 4 })).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(always.calls).toBe(4);
  });

  it('throws a final error at once, and never resends a write that is not idempotent', async () => {
    const request = { method: 'POST' as const, url: 'https://x', idempotent: true };
    const denied = answering('denied');
    await expect(requestClassified(denied, request, classify, { sleep: () => Promise.resolve() })).rejects.toMatchObject({ kind: 'forbidden' });
    expect(denied.calls).toBe(1);
    const write = answering('throttled');
    await expect(requestClassified(write, { ...request, idempotent: false }, classify)).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(write.calls).toBe(1);
  });
});
