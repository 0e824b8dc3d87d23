/**
 * Shopfront's simulator, on the simulator kit (packages/sandbox/src/simulators/kit.ts): SANDBOX's customers served as
 * Shopfront's admin API, rendered in the contract's own type (contract/types.ts), with its OAuth described as data.
 * A translator, not a second store: every answer is rendered from the account's SANDBOX books; an export's id carries
 * what it reads, so any process can answer its polls. A platform's simulator ships in packages/sandbox/src/simulators
 * (one line in SIMULATORS); the example's stays beside it and its test registers it.
 */
import type { PlatformSimulator, Rendered, SimulatorAnswer, SimulatorBooks, SimulatorRequest } from '../../../packages/sandbox/src/simulators/kit.ts';
import type { NativeCustomer } from '../../../packages/sandbox/src/native.ts';
import { callbackHmac, SHOPFRONT, SHOPFRONT_COSTS, SHOPFRONT_PAGE_SIZE, SHOPFRONT_TOKEN_HEADER } from './connector.ts';
import type { ShopfrontCustomer } from './contract/types.ts';

const usernameOf = (accountKey: string): string => accountKey.slice(accountKey.indexOf(':') + 1);
/** A SANDBOX user's shop: user_good → user-good.myshopify.com. */
export const simulatedShop = (accountKey: string): string => `${usernameOf(accountKey).toLowerCase().replace(/_/g, '-')}.myshopify.com`;
/** Shopfront's numeric id of a SANDBOX record: the id's last run of digits (CUS-000123 → 123). */
const numberOf = (sandboxId: string): number => Number(/(\d+)(?!.*\d)/.exec(sandboxId)?.[1] ?? '0');

/** SANDBOX's customer as Shopfront's: the connector's `map` read backwards. */
const render = (customer: NativeCustomer): Rendered<ShopfrontCustomer> => ({
  id: numberOf(customer.Id),
  name: customer.DisplayName,
  email: customer.Email ?? null,
  updated_at: customer.UpdatedAt,
});

const notFound: SimulatorAnswer = { status: 404, body: { errors: 'Not Found' } };
const costed = (cost: number, body: Record<string, unknown>): SimulatorAnswer => ({ status: 200, body: { ...body, cost: { actual: cost } } });

/** Customers changed after `since`, oldest first, one page from `offset`: the answer of a list and of an export's results. */
async function customerPage(
  books: SimulatorBooks,
  since: string | null,
  offset: number,
  next: 'next_page' | 'next_cursor',
): Promise<SimulatorAnswer> {
  const asOf = new Date(books.now?.() ?? Date.now()).toISOString();
  const changed = (await books.all('customer'))
    .filter((c) => since === null || c.UpdatedAt > since)
    .sort((a, b) => a.UpdatedAt.localeCompare(b.UpdatedAt) || a.Id.localeCompare(b.Id));
  const customers = changed.slice(offset, offset + SHOPFRONT_PAGE_SIZE).map(render);
  const more = offset + SHOPFRONT_PAGE_SIZE < changed.length ? String(offset + SHOPFRONT_PAGE_SIZE) : null;
  return costed(1 + customers.length, { customers, [next]: more, as_of: asOf });
}

/** An export's id: what it reads (`since`), so that polls and result reads need no stored state. */
const exportId = (since: string | null): string => `exp_${Buffer.from(since ?? '').toString('base64url')}`;
const sinceOf = (id: string): string | null => {
  const encoded = id.replace(/^exp_/, '');
  return encoded === '' ? null : Buffer.from(encoded, 'base64url').toString('utf8');
};

/** The platform's callback hmac over code, shop and host (not state), as the connector checks it: one function for both. */
function signCallback(params: URLSearchParams, secret: string): void {
  const { state: _state, ...signed } = Object.fromEntries(params);
  params.set('hmac', callbackHmac(signed, secret));
}

export const shopfrontSimulator: PlatformSimulator = {
  platform: SHOPFRONT,
  name: 'Shopfront',
  oauth: {
    authorizePath: '/admin/oauth/authorize',
    tokenPath: '/admin/oauth/access_token',
    // Offline tokens do not expire; a year stands for that here.
    accessTokenSeconds: 365 * 24 * 3600,
    responseType: false,
    hostParam: 'shop',
    tokenRequest: 'code',
    accessTokenHeader: SHOPFRONT_TOKEN_HEADER,
    callbackParams: (tenantId) => ({ shop: tenantId, host: Buffer.from(`${tenantId}/admin`).toString('base64url') }),
    signCallback,
    consentRefusal: (accountKey, consent) =>
      consent.get('shop') === simulatedShop(accountKey) ? null : `That shop is not this account's: its shop is ${simulatedShop(accountKey)}.`,
  },
  tenantId: simulatedShop,
  unauthorized: () => ({ status: 401, body: { errors: 'Invalid API key or access token' } }),
  async handle(request: SimulatorRequest, { books, tenantId }) {
    const path = request.path.replace(/^\/admin\/api/, '');
    const { query, method } = request;
    if (method === 'GET' && path === '/shop.json') return costed(SHOPFRONT_COSTS.shop, { shop: { name: books.company.name, domain: tenantId } });
    if (method === 'GET' && path === '/customers.json')
      return customerPage(books, query.get('updated_since'), Number(query.get('page') ?? '0'), 'next_page');
    if (method === 'POST' && path === '/exports.json') {
      return costed(SHOPFRONT_COSTS.startExport, { export: { id: exportId(query.get('updated_since')), status: 'running' } });
    }
    const exported = /^\/exports\/(exp_[A-Za-z0-9_-]*)(\/results)?\.json$/.exec(path);
    if (method !== 'GET' || exported?.[1] === undefined) return notFound;
    // SANDBOX's books are at hand: an export is ready at its first poll.
    if (exported[2] === undefined) return costed(SHOPFRONT_COSTS.pollExport, { status: 'completed', results_cursor: '0' });
    return customerPage(books, sinceOf(exported[1]), Number(query.get('cursor') ?? '0'), 'next_cursor');
  },
};
