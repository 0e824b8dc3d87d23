/**
 * Shopfront's stand-in for the tests, on the stand-in kit (test/standins/kit): every shop under one host ({url}/{shop}/…,
 * SHOPFRONT_API_URL). Every request and every answer is checked against the platform's published contract
 * (contract/openapi.json); what does not fit is answered 400 and kept in `problems`, which the tests expect empty. It
 * serves the consent page (approved at once: back with code, state, shop, host and the callback hmac), the token
 * exchange (the kit's OAuth server), the shop, the customers (paged, or by a bulk export that is ready after
 * `pollsBeforeReady` polls), and keeps the platform's leaky bucket per shop: a call arriving when the bucket has fewer
 * points than it costs is refused 429 and counted, so a test sees whether the service kept to it. No vitest here.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { type Answer, header, readBody, send, serve } from '../../standins/kit/server.ts';
import { OAuthServer, randomToken } from '../../standins/kit/oauth.ts';
import { OpenApiContract, type Operation as ContractOperation } from '../../standins/kit/openapi.ts';
import { callbackHmac, SHOPFRONT_COSTS, SHOPFRONT_LIMITS, SHOPFRONT_PAGE_SIZE, SHOPFRONT_TOKEN_HEADER } from './connector.ts';

type Operation = ContractOperation<'shopfront'>;

const LATENCY_SLACK_POINTS = 1;
const published: unknown = JSON.parse(readFileSync(new URL('./contract/openapi.json', import.meta.url), 'utf8'));
const contract = new OpenApiContract({ shopfront: typeof published === 'object' && published !== null ? { ...published } : {} });

/** Problems of an answer to `method path` against the published contract (the simulator's test checks its answers by it). */
export function contractProblems(method: string, path: string, status: number, body: unknown): string[] {
  const found = contract.find('shopfront', method, new URL(path, 'http://standin.invalid').pathname);
  if (found === null) return [`${method} ${path} is not in the contract`];
  return contract.validateResponse(found.operation, status, body).map((problem) => `${found.operation.id} answer: ${problem}`);
}

export interface StandInCustomer {
  id: number;
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
  /** Requests and answers that did not fit the published contract. */
  problems: string[];
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

const REFUSED = { status: 400, body: { error: 'invalid_request' } };

export async function startShopfrontStandIn(options: { pollsBeforeReady: number; retryAfterMs: number }): Promise<ShopfrontStandIn> {
  const app = { clientId: 'shopfront-client', clientSecret: `shopfront-secret-${randomBytes(6).toString('hex')}` };
  const oauth = new OAuthServer<string>({
    clientAuth: ['post'],
    accessSeconds: null,
    codeSeconds: null,
    refresh: 'none',
    checkRedirectUri: false,
    defaultGrant: 'authorization_code',
    mint: { access: () => randomToken('shpat_', 12, 'hex'), refresh: () => '', code: () => randomToken('', 12, 'hex') },
    answer: ({ accessToken }) => ({ access_token: accessToken, scope: 'read_customers' }),
    errors: { invalidClient: REFUSED, invalidGrant: REFUSED, unsupportedGrant: () => REFUSED },
  });
  oauth.register(app);
  const shops = new Map<string, Shop>();
  const exports = new Map<string, Export>();
  const failing = new Set<string>();
  const problems: string[] = [];
  let clock = Date.parse('2026-11-01T00:00:00.000Z');
  const now = (): string => new Date((clock += 1000)).toISOString();

  function shopNamed(domain: string): Shop {
    const shop = shops.get(domain);
    if (shop === undefined) throw new Error(`no shop ${domain}`);
    return shop;
  }

  /** Takes `cost` points from the shop's bucket; false (and counted) when it has too few. */
  function charge(shop: Shop, cost: number): boolean {
    const at = Date.now();
    shop.points = Math.min(SHOPFRONT_LIMITS.bucketSize, shop.points + ((at - shop.refilledAt) / 1000) * SHOPFRONT_LIMITS.refillPerSecond);
    shop.refilledAt = at;
    shop.calls += 1;
    // One point (100 ms of refill) of slack: the service takes its points when it sends a call and the shop when the
    // call arrives, so a call that left a full bucket is charged here that much refill later (tens of milliseconds on
    // a busy test machine). Without the service's bucket the calls of a sync overdraw it by whole calls.
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

  /** The admin API's answer to an operation the contract found (its token checked by the caller). */
  function admin(shop: Shop, domain: string, operation: Operation, params: Record<string, string>, query: URLSearchParams): Answer {
    const changed = (since: string | null) => shop.customers.filter((c) => since === null || c.updated_at > since);
    const costed = (cost: number, body: Record<string, unknown>): Answer =>
      charge(shop, cost) ? { status: 200, body: { ...body, cost: { actual: cost } } } : { status: 429, body: { errors: 'Throttled' } };
    const found = exports.get(params.export_id ?? '');
    switch (operation.id) {
      case 'getShop':
        return costed(SHOPFRONT_COSTS.shop, { shop: { name: shop.name, domain } });
      case 'listCustomers': {
        const { customers, next } = page(changed(query.get('updated_since')), Number(query.get('page') ?? '0'));
        return costed(1 + customers.length, { customers, next_page: next, as_of: now() });
      }
      case 'startExport': {
        const id = `exp_${randomBytes(6).toString('hex')}`;
        exports.set(id, { shop: domain, pollsLeft: options.pollsBeforeReady, since: query.get('updated_since'), fails: failing.delete(domain) });
        shop.exportsStarted += 1;
        return costed(SHOPFRONT_COSTS.startExport, { export: { id, status: 'running' } });
      }
      case 'pollExport': {
        if (found?.shop !== domain) return { status: 404, body: { errors: 'Not Found' } };
        shop.polls += 1;
        found.pollsLeft -= 1;
        if (found.fails) return costed(SHOPFRONT_COSTS.pollExport, { status: 'failed', error: 'INTERNAL_SERVER_ERROR' });
        const ready = found.pollsLeft < 0;
        return costed(
          SHOPFRONT_COSTS.pollExport,
          ready ? { status: 'completed', results_cursor: '0' } : { status: 'running', retry_after_ms: options.retryAfterMs },
        );
      }
      case 'readExportResults': {
        if (found?.shop !== domain) return { status: 404, body: { errors: 'Not Found' } };
        const { customers, next } = page(changed(found.since), Number(query.get('cursor') ?? '0'));
        return costed(1 + customers.length, { customers, next_cursor: next, as_of: now() });
      }
      default:
        return { status: 404, body: { errors: 'Not Found' } };
    }
  }

  /** The consent page, approved at once: back to the app with the code, the shop and the platform's hmac. */
  function consent(domain: string, query: URLSearchParams): Answer {
    const code = oauth.code(oauth.grant(query.get('client_id') ?? '', domain), null);
    const signed = { code, host: Buffer.from(`${domain}/admin`).toString('base64url'), shop: domain };
    const target = new URL(query.get('redirect_uri') ?? '');
    for (const [name, value] of Object.entries({ ...signed, state: query.get('state') ?? '', hmac: callbackHmac(signed, app.clientSecret) }))
      target.searchParams.set(name, value);
    return { status: 302, headers: { location: target.toString() } };
  }

  async function answer(request: IncomingMessage, url: URL): Promise<{ operation: Operation | null; answer: Answer }> {
    const [, domain = '', ...rest] = url.pathname.split('/');
    const found = contract.find('shopfront', request.method ?? 'GET', `/${rest.join('/')}`);
    const shop = shops.get(domain);
    if (found === null || shop === undefined) return { operation: null, answer: { status: 404, body: { errors: 'Not Found' } } };
    const { operation, pathParams } = found;
    const raw = await readBody(request);
    const contentType = header(request, 'content-type') ?? null;
    const form = new URLSearchParams(raw);
    const headers = { [SHOPFRONT_TOKEN_HEADER]: header(request, SHOPFRONT_TOKEN_HEADER) };
    // Who is calling before what they ask: a missing or foreign token is a 401, as the platform answers it.
    const granted = oauth.check(headers[SHOPFRONT_TOKEN_HEADER] ?? '');
    const signIn = operation.id === 'authorize' || operation.id === 'exchangeCode';
    if (!signIn && (!granted.ok || granted.grant.subject !== domain)) {
      return { operation, answer: { status: 401, body: { errors: 'Invalid API key or access token' } } };
    }
    const refused = contract.validateRequest(operation, {
      pathParams,
      query: url.searchParams,
      headers,
      contentType,
      body: raw === '' ? undefined : Object.fromEntries(form),
    });
    if (refused.length > 0) {
      problems.push(...refused.map((problem) => `${operation.id}: ${problem}`));
      return { operation, answer: { status: 400, body: { errors: refused.join('; ') } } };
    }
    if (operation.id === 'authorize') return { operation, answer: consent(domain, url.searchParams) };
    if (operation.id === 'exchangeCode') return { operation, answer: oauth.token(form, undefined, (grant) => grant.subject === domain) };
    return { operation, answer: admin(shop, domain, operation, pathParams, url.searchParams) };
  }

  const server = await serve(
    async (request, response) => {
      const { operation, answer: sent } = await answer(request, new URL(request.url ?? '/', 'http://standin.invalid'));
      if (operation !== null && sent.status !== 302) {
        problems.push(...contract.validateResponse(operation, sent.status, sent.body).map((problem) => `${operation.id} answer: ${problem}`));
      }
      send(response, sent);
    },
    (error, _request, response) => {
      problems.push(`the stand-in failed: ${String(error)}`);
      send(response, { status: 500, body: { errors: 'stand-in failure' } });
    },
  );
  return {
    url: server.url,
    app,
    problems,
    addShop(domain, count) {
      const customers = Array.from({ length: count }, (_, i) => ({
        id: 1000 + i,
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
    issueToken: (domain) => oauth.issue(oauth.grant(app.clientId, domain)).accessToken,
    rename(domain, customerId, name) {
      const customer = shopNamed(domain).customers.find((c) => String(c.id) === customerId);
      if (customer === undefined) throw new Error(`no customer ${customerId}`);
      customer.name = name;
      customer.updated_at = now();
    },
    close: server.close,
  };
}
