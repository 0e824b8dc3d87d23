/**
 * A local receiver of our webhooks for the latency benches: when the last webhook came for each key, by a function
 * of its body (BILL_UPDATED's bill id, ORDER_CREATED's platform id, …); and the benches' progress log.
 */
import http from 'node:http';
import { closeServer, listenOnLoopback } from '../../test/support/loopback-server.ts';

export class WebhookArrivals {
  /** performance.now() of the last arrival, by key. */
  readonly seen = new Map<string, number>();
  private readonly server: http.Server;

  constructor(keyOf: (body: Record<string, unknown>) => string | null) {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const at = performance.now();
        const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const key = typeof body === 'object' && body !== null && !Array.isArray(body) ? keyOf(body as Record<string, unknown>) : null;
        if (key !== null) this.seen.set(key, at);
        response.writeHead(200).end();
      });
    });
  }

  listen(): Promise<string> {
    return listenOnLoopback(this.server, '/hooks');
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

/** The field `field` of the object under `key` of a webhook body whose code is `code`, as a string; null otherwise. */
export function webhookKey(code: string, key: string, field: string): (body: Record<string, unknown>) => string | null {
  return (body) => {
    if (body.code !== code) return null;
    const object = body[key];
    const value = typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[field] : undefined;
    return typeof value === 'string' ? value : null;
  };
}

/** A progress line with the seconds since the bench began. */
export function benchLogger(): (message: string) => void {
  const began = performance.now();
  return (message) => {
    process.stdout.write(`[${Math.round((performance.now() - began) / 1000)}s] ${message}\n`);
  };
}
