/**
 * The plumbing every stand-in repeats: an HTTP server on 127.0.0.1 and a random port that closes with its open
 * connections, reading a request's body and headers, sending an answer (JSON, text or bytes, in the platform's content
 * types), and a queue of injected failures that the next matching requests take.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status: number;
  /** JSON (object or array), text, bytes, or nothing. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** The content type of each kind of body, as the platform sends them. */
export interface ContentTypes {
  json: string;
  text(body: string): string;
  /** Extra headers on every answer (a request id). */
  headers?(): Record<string, string>;
}

export const PLAIN_TYPES: ContentTypes = { json: 'application/json; charset=utf-8', text: () => 'text/plain; charset=utf-8' };

export interface StandInServer {
  url: string;
  /** Closes the server and its open connections (a property, so `close: server.close` carries no `this`). */
  close: () => Promise<void>;
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** A request header's (first) value. */
export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function send(response: ServerResponse, answer: Answer, types: ContentTypes = PLAIN_TYPES): void {
  const extra = { ...types.headers?.(), ...answer.headers };
  const { body } = answer;
  if (Buffer.isBuffer(body)) {
    response.writeHead(answer.status, { 'content-type': 'application/octet-stream', 'content-length': body.length, ...extra });
    response.end(body);
    return;
  }
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  response.writeHead(answer.status, { 'content-type': typeof body === 'string' ? types.text(body) : types.json, ...extra });
  response.end(text);
}

/**
 * Serves `handle` until closed; a handler that throws is the stand-in's own failure: `failed` answers it (and records
 * it where the tests look).
 */
export async function serve(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  failed: (error: unknown, request: IncomingMessage, response: ServerResponse) => void,
): Promise<StandInServer> {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      failed(error, request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  };
}

/** Injected failures: each is taken by the next `count` requests it matches, in the order added. */
export class Faults<F> {
  private readonly queue: { fault: F; left: number }[] = [];

  add(fault: F, count: number): void {
    this.queue.push({ fault, left: count });
  }

  /** The first fault left that `matches` the request, counted as used; undefined when none. */
  take(matches: (fault: F) => boolean): F | undefined {
    const entry = this.queue.find((e) => e.left > 0 && matches(e.fault));
    if (entry === undefined) return undefined;
    entry.left -= 1;
    return entry.fault;
  }
}

/** `rule` (a substring or a pattern; none: everything) matches `line`. */
export function matchesLine(rule: string | RegExp | undefined, line: string): boolean {
  if (rule === undefined) return true;
  return typeof rule === 'string' ? line.includes(rule) : rule.test(line);
}
