/**
 * The sandbox's native REST API over HTTP, so the real HTTP client path (with
 * its retries, Retry-After and error classification) can be exercised:
 * statuses are real (400, 401, 402, 404, 429 with Retry-After, 500, 503).
 *
 * Standalone: DATABASE_URL=postgres://… node packages/sandbox/src/server.ts
 * (SANDBOX_PORT, default 4010), then point the service at it with SANDBOX_URL.
 * It serves the platform's own pages too (pages.ts: the bank feed linking page),
 * so mapping links it hands out point at itself (SANDBOX_PUBLIC_URL, default its
 * own address).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { handleNative, type NativeMethod, type NativeRequest } from './api.ts';
import {
  FORM_BODY_LIMIT,
  FORM_CONTENT_TYPE,
  LINK_PAGE_PATH,
  messagePage,
  PAGE_HEADERS,
  parseForm,
  showLinkPage,
  submitLinkPage,
  type PageResponse,
} from './pages.ts';
import { migrateSandbox } from './migrate.ts';
import { SandboxPlatform } from './platform.ts';
import { MAX_ATTACHMENT_BYTES } from './writes/attachments.ts';

const MAX_BODY = 1_000_000;
/** Uploads carry the file as base64 (4 bytes per 3) inside JSON. */
const MAX_UPLOAD_BODY = Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4 + 64 * 1024;
const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export interface SandboxServer {
  url: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendPage(res: ServerResponse, page: PageResponse): void {
  res.writeHead(page.status, { ...PAGE_HEADERS, 'content-length': Buffer.byteLength(page.html) });
  res.end(page.html);
}

/** The platform's web pages: the bank feed linking page (GET shows it, POST submits its form). */
async function handlePage(platform: SandboxPlatform, req: IncomingMessage, res: ServerResponse, url: URL, method: string): Promise<void> {
  const token = url.pathname.slice(LINK_PAGE_PATH.length + 1);
  if (method === 'GET') {
    sendPage(res, await showLinkPage(platform, token));
    return;
  }
  if (method !== 'POST') {
    sendPage(res, messagePage(405, 'This request was not understood', 'Open the link you were given again, and use the form on it.'));
    return;
  }
  if ((req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() !== FORM_CONTENT_TYPE) {
    sendPage(res, messagePage(415, 'This request was not understood', 'Open the link you were given again, and use the form on it.'));
    return;
  }
  let form: Record<string, string>;
  try {
    form = parseForm(await readBody(req, FORM_BODY_LIMIT));
  } catch {
    sendPage(res, messagePage(413, 'This request was not understood', 'Open the link you were given again, and use the form on it.'));
    return;
  }
  sendPage(res, await submitLinkPage(platform, token, form));
}

async function handle(platform: SandboxPlatform, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.local');
  const method = (req.method ?? 'GET').toUpperCase();
  if (url.pathname.startsWith(`${LINK_PAGE_PATH}/`)) {
    await handlePage(platform, req, res, url, method);
    return;
  }
  if (!METHODS.has(method)) {
    send(res, 405, {}, { Fault: { Type: 'ValidationFault', Error: [{ Message: `method ${method} not allowed`, code: 'MethodNotAllowed' }] } });
    return;
  }
  let body: unknown;
  try {
    const text = await readBody(req, method === 'POST' && url.pathname.toLowerCase() === '/v1/attachments' ? MAX_UPLOAD_BODY : MAX_BODY);
    body = text === '' ? undefined : JSON.parse(text);
  } catch (error) {
    send(
      res,
      400,
      {},
      { Fault: { Type: 'ValidationFault', Error: [{ Message: `unreadable body: ${(error as Error).message}`, code: 'MalformedBody' }] } },
    );
    return;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name.toLowerCase()] = value;
  // A client that hangs up cancels whatever the platform was waiting on (the slow scenario's delays).
  const aborted = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const request: NativeRequest = {
    method: method as NativeMethod,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
    signal: aborted.signal,
  };
  const response = await handleNative(platform, request);
  send(res, response.status, response.headers, response.body);
}

export async function startSandboxServer(platform: SandboxPlatform, options: { port?: number; host?: string } = {}): Promise<SandboxServer> {
  const server = createServer((req, res) => {
    handle(platform, req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, {}, { Fault: { Type: 'SystemFault', Error: [{ Message: String(error), code: 'InternalError' }] } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
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

if (import.meta.main) {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === '') {
    process.stderr.write('DATABASE_URL is required (the sandbox keeps its books in PostgreSQL)\n');
    process.exit(1);
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // Its own schema (sandbox_platform), by its own migrations: the database needs none of the service's.
  await migrateSandbox(pool);
  const port = Number(process.env.SANDBOX_PORT ?? 4010);
  const host = process.env.SANDBOX_HOST ?? '127.0.0.1';
  // Mapping links point at this server's own pages, not at the service's PUBLIC_URL.
  const configured = process.env.SANDBOX_PUBLIC_URL;
  const publicUrl = configured !== undefined && configured !== '' ? configured : `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const server = await startSandboxServer(new SandboxPlatform(pool, { publicUrl }), { port, host });
  process.stdout.write(`sandbox platform listening on ${server.url}\n`);
}
