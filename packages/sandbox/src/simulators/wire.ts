/**
 * A simulator's requests and answers on the wire: a fetch call (the connector's PlatformHttp, in process) or an HTTP
 * request (the browser, over the service's /simulators mount) becomes a SimulatorRequest, and a SimulatorAnswer becomes
 * a fetch Response, with the body encoded the way the platform encodes it.
 */
import type { SimulatorAnswer, SimulatorRequest } from './kit.ts';

/** A JSON object (not an array, not null): what a write body, or a field of it, must be to be read. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The objects of a JSON array (a body's records, lines, addresses); none when it is no array. */
export const recordsIn = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    record[name.toLowerCase()] = value;
  });
  return record;
}

/** Parses a body by its content type: JSON, form fields, or the bytes as sent. */
export function parseBody(contentType: string | undefined, bytes: Uint8Array | null): unknown {
  if (bytes === null || bytes.byteLength === 0) return undefined;
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = (): string => Buffer.from(bytes).toString('utf8');
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return JSON.parse(text()) as unknown;
    } catch {
      return { malformedJson: text() };
    }
  }
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text()));
  return bytes;
}

async function bytesOf(body: RequestInit['body']): Promise<Uint8Array | null> {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), 'utf8');
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** A fetch call as the platform would receive it. */
export async function requestOf(url: string, init: RequestInit): Promise<SimulatorRequest> {
  const parsed = new URL(url);
  const headers = headerRecord(init.headers);
  return {
    method: (init.method ?? 'GET').toUpperCase(),
    path: parsed.pathname,
    query: parsed.searchParams,
    headers,
    body: parseBody(headers['content-type'], await bytesOf(init.body)),
  };
}

/** The answer as a fetch Response. */
export function responseOf(answer: SimulatorAnswer): Response {
  const headers = new Headers(answer.headers);
  let body: string | Buffer | null = null;
  if (answer.body instanceof Uint8Array) {
    body = Buffer.from(answer.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/octet-stream');
  } else if (typeof answer.body === 'string') {
    body = answer.body;
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8');
  } else if (answer.body !== undefined) {
    body = JSON.stringify(answer.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
  }
  // 204 and 304 carry no body.
  return new Response(answer.status === 204 || answer.status === 304 ? null : body, { status: answer.status, headers });
}
