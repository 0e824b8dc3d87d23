/**
 * One delivery attempt: an HTTP POST of the body with its headers, a 2xx
 * within the timeout being the only success. Redirects are not followed (a 3xx
 * is a failed attempt). With allowPrivate false, addresses are checked before
 * any connection is made (src/webhooks/address-guard.ts).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressRefusal, guardedLookup, notGlobal } from './address-guard.ts';

export type AttemptKind = 'success' | 'http_error' | 'timeout' | 'network' | 'refused';

export interface AttemptResult {
  kind: AttemptKind;
  statusCode: number | null;
  error: string | null;
  /** The first bytes of the receiver's answer, for the delivery log. */
  excerpt: string | null;
  durationMs: number;
}

export type Send = (url: string, body: string, headers: Record<string, string>) => Promise<AttemptResult>;

const EXCERPT_BYTES = 1024;

/** PostgreSQL text cannot hold U+0000: an answer containing one would otherwise fail the attempt's record. */
const storable = (text: string | null): string | null => (text === null ? null : text.replaceAll('\u0000', ''));

export function createSender(options: { allowPrivate: boolean; timeoutMs: number }): { send: Send; close: () => void } {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64, ...(options.allowPrivate ? {} : { lookup: guardedLookup }) }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64, ...(options.allowPrivate ? {} : { lookup: guardedLookup }) }),
  };
  const send: Send = (raw, body, headers) => {
    const started = performance.now();
    const done = (kind: AttemptKind, statusCode: number | null, error: string | null, excerpt: string | null): AttemptResult => ({
      kind,
      statusCode,
      error: storable(error),
      excerpt: storable(excerpt),
      durationMs: Math.round(performance.now() - started),
    });
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return Promise.resolve(done('refused', null, 'the webhook URL is not valid', null));
    }
    const agent = url.protocol === 'https:' ? agents['https:'] : url.protocol === 'http:' ? agents['http:'] : null;
    if (agent === null) return Promise.resolve(done('refused', null, `unsupported scheme ${url.protocol}`, null));
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    // Literal addresses never go through the lookup: judge them here, before any connection.
    const reason = options.allowPrivate || isIP(host) === 0 ? null : addressRefusal(host);
    if (reason !== null) return Promise.resolve(done('refused', null, `refused: ${host} is an address ${notGlobal(reason)}`, null));
    return new Promise<AttemptResult>((resolve) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(
        url,
        {
          method: 'POST',
          agent,
          signal: AbortSignal.timeout(options.timeoutMs),
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'Ledgerport-Webhooks/1',
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < EXCERPT_BYTES) chunks.push(chunk);
            size += chunk.length;
          });
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
            resolve(status >= 200 && status < 300 ? done('success', status, null, excerpt) : done('http_error', status, `HTTP ${status}`, excerpt));
          });
          response.on('error', (error) => {
            resolve(done('network', response.statusCode ?? null, error.message, null));
          });
        },
      );
      request.on('error', (error: Error & { code?: string }) => {
        if (error.name === 'TimeoutError' || error.name === 'AbortError')
          resolve(done('timeout', null, `no answer within ${options.timeoutMs} ms`, null));
        else if (error.code === 'ERR_WEBHOOK_FORBIDDEN_ADDRESS') resolve(done('refused', null, error.message, null));
        else resolve(done('network', null, error.code === undefined ? error.message : `${error.code}: ${error.message}`, null));
      });
      request.end(body);
    });
  };
  return {
    send,
    close: (): void => {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
