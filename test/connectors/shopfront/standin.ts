/**
 * Shopfront's stand-in for the tests: every shop under one host ({url}/{shop}/…, SHOPFRONT_API_URL). It serves the
 * consent page (redirects back with code, state, shop, host and the callback hmac), the token exchange, the shop, the
 * customers (paged, or by a bulk export that is ready after `pollsBeforeReady` polls), and it keeps Shopify's leaky
 * bucket per shop: a call arriving when the bucket has fewer points than it costs is refused 429 and counted, so a
 * test sees whether the service kept to the bucket. Every answer says its cost (`cost.actual`). No vitest here.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callbackHmac, SHOPFRONT_COSTS, SHOPFRONT_LIMITS, SHOPFRONT_PAGE_SIZE } from './connector.ts';

const LATENCY_SLACK_POINTS = 1;

export interface StandInCustomer {
  id: string;
  name: string;
  email: string;
  updated_at: string;
}

interface Shop {
  name: string;
  customers: StandInCustomer[];
  points: number;
  refilledAt: number;
  /** Calls of the admin API answered (throttled ones included): what the daily budget counts. */
  calls: number;
  throttled: number;
  costCharged: number;
  exportsStarted: number;
  polls: number;
}

interface Export {
  shop: string;
  pollsLeft: number;
  since: string | null;
  fails: boolean;
}

export interface ShopfrontStandIn {
  url: string;
  app: { clientId: string; clientSecret: string };
  addShop(domain: string, customers: number): void;
  shop(domain: string): Shop;
  /** The shop's next export fails at its first poll (the platform gave up on it). */
  failNextExport(domain: string): void;
  /** An access token of the shop, as the consent and exchange would issue it (tests that skip the link flow). */
  issueToken(domain: string): string;
  /** Changes a customer's name now (its updated_at moves), as the shop's owner would. */
  rename(domain: string, customerId: string, name: string): void;
  close(): Promise<void>;
}

export async function startShopfrontStandIn(options: { pollsBeforeReady: number; retryAfterMs: number }): Promise<ShopfrontStandIn> {
  const app = { clientId: 'shopfront-client', clientSecret: `shopfront-secret-${randomBytes(6).toString('hex')}` };
  const shops = new Map<string, Shop>();
  const codes = new Map<string, string>();
  const tokens = new Map<string, string>();
  const exports = new Map<string, Export>();
  const failing = new Set<string>();
  let clock = Date.parse('2026-11-01T00:00:00.000Z');
  const now = (): string => new Date((clock += 1000)).toISOString();

  function charge(shop: Shop, cost: number): boolean {
    const at = Date.now();
    shop.points = Math.min(SHOPFRONT_LIMITS.bucketSize, shop.points + ((at - shop.refilledAt) / 1000) * SHOPFRONT_LIMITS.refillPerSecond);
    shop.refilledAt = at;
    shop.calls += 1;
    // One point (100 ms of refill) of slack: the service takes its points when it sends a call and the shop when the
    // call arrives, so a call that left a full bucket is charged here that much refill later (tens of milliseconds on
    // a busy test machine). Without the service's bucket the calls of a sync overdraw it by whole calls (an export's
    // start alone is half of it).
    if (shop.points + LATENCY_SLACK_POINTS < cost) {
      shop.throttled += 1;
      return false;
    }
    shop.points -= cost;
    shop.costCharged += cost;
    return true;
  }

  function page(list: StandInCustomer[], offset: number): { customers: StandInCustomer[]; next: string | null } {
    const customers = list.slice(offset, offset + SHOPFRONT_PAGE_SIZE);
    return { customers, next: offset + SHOPFRONT_PAGE_SIZE < list.length ? String(offset + SHOPFRONT_PAGE_SIZE) : null };
  }

  /** Sends the answer; true, so a handler can `return answer(…)` in one line. */
  function answer(response: ServerResponse, status: number, body: unknown): true {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return true;
  }

  function admin(shop: Shop, domain: string, path: string, url: URL, method: string, response: ServerResponse): true {
    const updatedSince = url.searchParams.get('updated_since');
    const changed = (since: string | null) => shop.customers.filter((c) => since === null || c.updated_at > since);
    const costed = (cost: number, body: Record<string, unknown>): true =>
      charge(shop, cost) ? answer(response, 200, { ...body, cost: { actual: cost } }) : answer(response, 429, { errors: 'Throttled' });
    if (method === 'GET' && path === '/shop.json') return costed(SHOPFRONT_COSTS.shop, { shop: { name: shop.name, domain } });
    if (method === 'GET' && path === '/customers.json') {
      const { customers, next } = page(changed(updatedSince), Number(url.searchParams.get('page') ?? '0'));
      return costed(1 + customers.length, { customers, next_page: next, as_of: now() });
    }
    if (method === 'POST' && path === '/exports.json') {
      const id = `exp_${randomBytes(6).toString('hex')}`;
      exports.set(id, { shop: domain, pollsLeft: options.pollsBeforeReady, since: updatedSince, fails: failing.delete(domain) });
      shop.exportsStarted += 1;
      return costed(SHOPFRONT_COSTS.startExport, { export: { id, status: 'running' } });
    }
    const match = /^\/exports\/([^/]+?)(\/results)?\.json$/.exec(path);
    const exportId = match?.[1];
    const found = exportId === undefined ? undefined : exports.get(exportId);
    if (method === 'GET' && found?.shop === domain) {
      if (match?.[2] === undefined) {
        shop.polls += 1;
        found.pollsLeft -= 1;
        const ready = found.pollsLeft < 0;
        if (found.fails) return costed(SHOPFRONT_COSTS.pollExport, { status: 'failed', error: 'INTERNAL_SERVER_ERROR' });
        return costed(
          SHOPFRONT_COSTS.pollExport,
          ready ? { status: 'completed', results_cursor: '0' } : { status: 'running', retry_after_ms: options.retryAfterMs },
        );
      }
      const { customers, next } = page(changed(found.since), Number(url.searchParams.get('cursor') ?? '0'));
      return costed(1 + customers.length, { customers, next_cursor: next, as_of: now() });
    }
    return answer(response, 404, { errors: 'Not Found' });
  }

  function handle(request: IncomingMessage, body: string, response: ServerResponse): true {
    const url = new URL(request.url ?? '/', 'http://standin.invalid');
    const [, domain = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    const shop = shops.get(domain);
    if (shop === undefined) return answer(response, 404, { errors: 'Unknown shop' });
    if (path === '/admin/oauth/authorize') {
      // The consent page, approved at once: back to the app with the code, the shop and Shopify's hmac.
      const code = randomBytes(12).toString('hex');
      codes.set(code, domain);
      const back = { code, host: Buffer.from(`${domain}/admin`).toString('base64url'), shop: domain, state: url.searchParams.get('state') ?? '' };
      const signed = { code: back.code, host: back.host, shop: back.shop };
      const target = new URL(url.searchParams.get('redirect_uri') ?? '');
      for (const [name, value] of Object.entries({ ...back, hmac: callbackHmac(signed, app.clientSecret) })) target.searchParams.set(name, value);
      response.writeHead(302, { location: target.toString() }).end();
      return true;
    }
    if (path === '/admin/oauth/access_token' && request.method === 'POST') {
      const form = new URLSearchParams(body);
      const code = form.get('code') ?? '';
      if (form.get('client_secret') !== app.clientSecret || codes.get(code) !== domain) return answer(response, 400, { error: 'invalid_request' });
      codes.delete(code);
      const token = `shpat_${randomBytes(12).toString('hex')}`;
      tokens.set(token, domain);
      return answer(response, 200, { access_token: token, scope: 'read_customers' });
    }
    if (path.startsWith('/admin/api/')) {
      const token = request.headers['x-shopfront-access-token'];
      if (typeof token !== 'string' || tokens.get(token) !== domain) return answer(response, 401, { errors: 'Invalid API key or access token' });
      return admin(shop, domain, path.slice('/admin/api'.length), url, request.method ?? 'GET', response);
    }
    return answer(response, 404, { errors: 'Not Found' });
  }

  function shopNamed(domain: string): Shop {
    const shop = shops.get(domain);
    if (shop === undefined) throw new Error(`no shop ${domain}`);
    return shop;
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handle(request, Buffer.concat(chunks).toString('utf8'), response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    addShop(domain, count) {
      const customers = Array.from({ length: count }, (_, i) => ({
        id: String(1000 + i),
        name: `Customer ${i + 1}`,
        email: `c${i + 1}@example.com`,
        updated_at: now(),
      }));
      shops.set(domain, {
        name: `Shop ${domain}`,
        customers,
        points: SHOPFRONT_LIMITS.bucketSize,
        refilledAt: Date.now(),
        calls: 0,
        throttled: 0,
        costCharged: 0,
        exportsStarted: 0,
        polls: 0,
      });
    },
    shop: shopNamed,
    failNextExport(domain) {
      failing.add(domain);
    },
    issueToken(domain) {
      const token = `shpat_${randomBytes(12).toString('hex')}`;
      tokens.set(token, domain);
      return token;
    },
    rename(domain, customerId, name) {
      const customer = shopNamed(domain).customers.find((c) => c.id === customerId);
      if (customer === undefined) throw new Error(`no customer ${customerId}`);
      customer.name = name;
      customer.updated_at = now();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
