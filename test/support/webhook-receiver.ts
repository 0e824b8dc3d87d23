/**
 * A webhook receiver for fault tests (127.0.0.1): checks every request's
 * signature itself, from the spec (sha256= + base64 HMAC of the raw body with
 * the organisation's client secret), not with the service's code, answers 200
 * and counts the 2xx acceptances per X-Service-Event-Id.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export function expectedWebhookSignature(body: Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;
}

/** A request header as one string (repeated headers joined). */
export function header(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export class WebhookReceiver {
  /** Event id → how many times it was answered 2xx. */
  readonly accepted = new Map<string, number>();
  /** The bodies answered 2xx, parsed, in the order they came. */
  readonly bodies: Record<string, unknown>[] = [];
  requests = 0;
  badSignatures = 0;
  badRequests = 0;
  private secret = '';
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.handle(request, Buffer.concat(chunks), response);
    });
  });

  private handle(request: http.IncomingMessage, body: Buffer, response: http.ServerResponse): void {
    this.requests += 1;
    const expected = expectedWebhookSignature(body, this.secret);
    const listed = (header(request, 'x-service-signatures') ?? '').split(', ');
    if (header(request, 'x-service-signature') !== expected || !listed.includes(expected)) {
      this.badSignatures += 1;
      response.writeHead(401).end('bad signature');
      return;
    }
    const eventId = header(request, 'x-service-event-id');
    if (eventId === undefined || request.method !== 'POST') {
      this.badRequests += 1;
      response.writeHead(400).end('no event id');
      return;
    }
    this.accepted.set(eventId, (this.accepted.get(eventId) ?? 0) + 1);
    this.bodies.push(JSON.parse(body.toString('utf8')) as Record<string, unknown>);
    response.writeHead(200).end('ok');
  }

  /** Listens on a free port; the URL to register as the webhook endpoint. */
  async listen(secret: string): Promise<string> {
    this.secret = secret;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}/hooks`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
  }
}

/** What listenAsSandboxAddress needs of a test app: its database and the organisation it signs for. */
interface ReceiverOwner {
  db: { pool: { query(text: string, values: unknown[]): Promise<unknown> } };
  org: { organization: { id: string }; credentials: { sandbox: { client_secret: string } } };
}

/** A receiver listening on loopback and registered as the organisation's sandbox webhook address. */
export async function listenAsSandboxAddress(t: ReceiverOwner): Promise<WebhookReceiver> {
  const receiver = new WebhookReceiver();
  const url = await receiver.listen(t.org.credentials.sandbox.client_secret);
  await t.db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    t.org.organization.id,
    'sandbox',
    url,
  ]);
  return receiver;
}
