/**
 * SHOPIFY's simulator: SANDBOX's web shop served as Shopify's Admin GraphQL API (2026-10), for the calls the SHOPIFY
 * connector (src/platforms/shopify) makes: OAuth on the shop's own domain (the shop is the SANDBOX user's:
 * user_good → user-good.myshopify.com), the callback signed with the app's secret as Shopify signs it, an offline
 * token in X-Shopify-Access-Token, queries validated and executed against the published schema's part the connector
 * uses (graph.ts), cost reported in `extensions.cost`, and bulk operations whose JSONL result is a signed link
 * (bulk.ts), and the product writes taken into SANDBOX's catalogue (catalogue.ts). Simulators send no webhooks.
 */
import { createHmac } from 'node:crypto';
import { execute, getOperationAST, Kind, type DocumentNode, type FragmentDefinitionNode } from 'graphql';
import type { PlatformSimulator, SimulatorAnswer, SimulatorGrant, SimulatorRequest } from '../kit.ts';
import { isRecord } from '../wire.ts';
import { bulkOperationId, bulkOperationRef, bulkResult } from './bulk.ts';
import { catalogueMutations } from './catalogue.ts';
import { chargedCost, requestedCost, STANDARD_BUCKET } from './cost.ts';
import { checkedQuery, queryRoot, simulatorSchema } from './graph.ts';
import { shopDomainOf, shopNumber } from './ids.ts';

const GRAPHQL_PATH = /^\/admin\/api\/\d{4}-\d{2}\/graphql\.json$/;
const RESULTS_PATH = '/shopify-simulator-bulk/';
const RESULT_LINK_SECONDS = 7 * 24 * 3600;
/** The simulator never throttles: its bucket is always full. */
const throttleStatus = { ...STANDARD_BUCKET, currentlyAvailable: STANDARD_BUCKET.maximumAvailable };

const usernameOf = (accountKey: string): string => accountKey.slice(accountKey.indexOf(':') + 1);

/** The operation's cost by Shopify's rules (cost.ts): requested before it runs, charged for what came back. */
function costOf(document: DocumentNode, variables: Readonly<Record<string, unknown>>, data: unknown): { requested: number; actual: number } {
  const operation = getOperationAST(document);
  if (operation === null || operation === undefined) return { requested: 0, actual: 0 };
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const requested = requestedCost(simulatorSchema(), operation, fragments, variables);
  return { requested, actual: chargedCost(requested, operation, data) };
}

async function graphql(request: SimulatorRequest, grant: SimulatorGrant): Promise<SimulatorAnswer> {
  const body = isRecord(request.body) ? request.body : {};
  if (typeof body.query !== 'string') return { status: 400, body: { errors: { query: 'Required parameter missing or invalid' } } };
  const document = checkedQuery(body.query);
  if (Array.isArray(document)) return { status: 200, body: { errors: document.map((message) => ({ message })) } };
  const schema = simulatorSchema();
  const domain = shopDomainOf(usernameOf(grant.accountKey));
  const variables = isRecord(body.variables) ? body.variables : {};
  const rootValue = queryRoot(grant.books, { domain }, false);
  const mutations = {
    ...catalogueMutations(grant.books),
    bulkOperationRunQuery: (args: { query: string }) => {
      const invalid = checkedQuery(args.query);
      if (Array.isArray(invalid))
        return { bulkOperation: null, userErrors: invalid.map((message) => ({ field: ['query'], message, code: 'INVALID' })) };
      return {
        bulkOperation: { id: bulkOperationId({ query: args.query, createdAt: new Date().toISOString() }), status: 'CREATED' },
        userErrors: [],
      };
    },
  };
  const bulkOperation = async (args: { id: string }) => {
    const ref = bulkOperationRef(args.id);
    if (ref === null) return null;
    const lines = await bulkResult(schema, grant.books, domain, ref.query);
    const token = await grant.linkToken(RESULT_LINK_SECONDS);
    const link = `https://storage.googleapis.com${RESULTS_PATH}result.jsonl?operation=${encodeURIComponent(args.id)}&X-Goog-Signature=${token}`;
    return {
      id: args.id,
      status: 'COMPLETED',
      errorCode: null,
      objectCount: String(lines.length),
      url: lines.length === 0 ? null : link,
      partialDataUrl: null,
      createdAt: ref.createdAt,
      completedAt: ref.createdAt,
    };
  };
  const result = await execute({
    schema,
    document,
    variableValues: variables,
    rootValue: { ...rootValue, ...mutations, bulkOperation },
  });
  const { requested, actual } = costOf(document, variables, result.data ?? null);
  return {
    status: 200,
    body: {
      ...(result.errors === undefined ? {} : { errors: result.errors.map((e) => ({ message: e.message, path: e.path })) }),
      data: result.data ?? null,
      extensions: { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus } },
    },
  };
}

async function bulkDownload(request: SimulatorRequest, grant: SimulatorGrant): Promise<SimulatorAnswer> {
  const ref = bulkOperationRef(request.query.get('operation'));
  if (ref === null) return { status: 404, body: 'NoSuchKey' };
  const lines = await bulkResult(simulatorSchema(), grant.books, shopDomainOf(usernameOf(grant.accountKey)), ref.query);
  return { status: 200, headers: { 'content-type': 'application/jsonl' }, body: lines.map((line) => `${line}\n`).join('') };
}

/** Shopify's callback hmac: hex HMAC-SHA256 of the other parameters sorted by name, under the app's secret. */
export function signShopifyCallback(params: URLSearchParams, secret: string): void {
  params.delete('hmac');
  const message = [...params.keys()]
    .sort()
    .map((name) => `${name}=${params.get(name) ?? ''}`)
    .join('&');
  params.set('hmac', createHmac('sha256', secret).update(message).digest('hex'));
}

export const shopifySimulator: PlatformSimulator = {
  platform: 'SHOPIFY',
  name: 'Shopify',
  oauth: {
    authorizePath: '/admin/oauth/authorize',
    tokenPath: '/admin/oauth/access_token',
    // Offline tokens do not expire; a year stands for that here.
    accessTokenSeconds: 365 * 24 * 3600,
    responseType: false,
    hostParam: 'shop',
    tokenRequest: 'code',
    accessTokenHeader: 'x-shopify-access-token',
    consentRefusal(accountKey, consent) {
      const asked = (consent.get('shop') ?? '').toLowerCase();
      const own = shopDomainOf(usernameOf(accountKey));
      return asked === own ? null : `The shop ${asked || '(none)'} is not this account's: ${usernameOf(accountKey)}'s shop is ${own}.`;
    },
    callbackParams: (_tenantId, consent) => {
      const shop = (consent.get('shop') ?? '').toLowerCase();
      return {
        shop,
        host: Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, '')}`).toString('base64url'),
        timestamp: String(Math.floor(Date.now() / 1000)),
      };
    },
    signCallback: signShopifyCallback,
  },
  tenantId: (accountKey) => String(shopNumber(accountKey)),
  links: { tokenParam: 'X-Goog-Signature', pathPrefix: RESULTS_PATH },
  unauthorized: () => ({ status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } }),
  handle(request, grant) {
    if (request.method === 'POST' && GRAPHQL_PATH.test(request.path)) return graphql(request, grant);
    if (request.method === 'GET' && request.path.startsWith(RESULTS_PATH)) return bulkDownload(request, grant);
    return Promise.resolve({ status: 404, body: { errors: 'Not Found' } });
  },
};
