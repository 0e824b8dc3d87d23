/**
 * Shopify's Admin GraphQL API, pinned to one version (SHOPIFY_API_VERSION), called through the connection's shared
 * PlatformHttp (ctx.http) so retries, the per-shop cost bucket, the daily budget and call logging apply to it like
 * to every platform.
 *
 * We do not use @shopify/admin-api-client here: it brings its own fetch, retry and response handling, so its calls
 * would bypass the shared limiter and retry policy (or, routed through ctx.http with customFetchApi, retry twice and
 * hide the cost settling). Each call is one POST of `{query, variables}`; what it needs is the answer's checking,
 * which is ours either way.
 */
import { platformAddress } from '../addresses.ts';
import type { AuthorizationInput, ConnectorContext } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { requestClassified, type PlatformRequest } from '../http.ts';
import { isRecord } from '../json.ts';
import { parseAnswer, type Answer } from './contract.ts';
import { classifyShopifyStatus, graphqlError } from './errors.ts';
import { DOCUMENTS, type ShopifyAnswers } from './generated/types.ts';
import { PAGE_COSTS } from './queries.ts';

export const SHOPIFY = 'SHOPIFY';

/**
 * Whether a document may be sent again by the HTTP layer after a failed attempt: queries, and bulkOperationRunQuery
 * (it starts a read; Shopify refuses a second while the first runs, and the runner adopts it). A write's mutation is
 * not: the write jobs look a lost one up (findCreated) before sending anything again.
 */
const mayResend = (answer: Sent): boolean => answer === 'BulkRun' || !DOCUMENTS[answer].trimStart().startsWith('mutation');
/** The Admin API version every call names; Shopify supports each stable version for at least twelve months. */
export const SHOPIFY_API_VERSION = '2026-10';
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
/** Attempts of one query when Shopify answers THROTTLED (HTTP 200): the shared HTTP layer retries only failed statuses. */
export const THROTTLED_ATTEMPTS = 5;
const MAX_THROTTLE_WAIT_MS = 30_000;

/** Address of a shop: https://{shop}, or {SHOPIFY_API_URL}/{shop} when every shop is routed through one host. */
export function shopUrl(shop: string): string {
  const routed = process.env.SHOPIFY_API_URL;
  return routed === undefined || routed === '' ? `https://${shop}` : `${platformAddress('SHOPIFY_API_URL', routed)}/${shop}`;
}

/** The connection's shop domain; the link flow checked it, so a missing one is a bug, not the end user's doing. */
export function shopOf(input: AuthorizationInput | undefined): string {
  const shop = input?.store_url;
  if (shop === undefined || !SHOP_DOMAIN.test(shop)) throw new Error('a SHOPIFY connection has no shop domain (store_url)');
  return shop;
}

export function graphqlUrl(shop: string): string {
  return `${shopUrl(shop)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
}

/** The documents the connector sends (its bulk exports' are sent inside BulkRun), by their answer's name. */
export type Sent = keyof typeof PAGE_COSTS & Answer;

/**
 * Sends the document whose answer is `answer` (generated/: its operation's name) and returns its `data`, parsed as
 * that. Its requested cost (PAGE_COSTS) is taken from the shop's bucket before the call; the answer's actualQueryCost
 * settles the difference. A THROTTLED answer is retried here after the time its throttle status says the bucket
 * needs; any other GraphQL error is thrown as its PlatformError.
 */
export async function shopifyGraphql<K extends Sent>(
  ctx: ConnectorContext,
  answer: K,
  operation: string,
  variables: Record<string, unknown>,
): Promise<ShopifyAnswers[K]> {
  const shop = shopOf(ctx.credentials);
  const tokens = ctx.oauth === null ? ctx.tokens : await ctx.oauth.tokens();
  if (tokens === null) throw new PlatformError({ kind: 'unauthorized', message: 'The connection has no access token', requestSent: false });
  const request: PlatformRequest = {
    method: 'POST',
    url: graphqlUrl(shop),
    headers: { 'x-shopify-access-token': tokens.accessToken, 'content-type': 'application/json' },
    body: { query: DOCUMENTS[answer], variables },
    idempotent: mayResend(answer),
    operation,
    cost: PAGE_COSTS[answer],
    signal: ctx.signal,
    classifyError: classifyShopifyStatus,
  };
  // GraphQL errors come in a 200: the kit sorts them with Shopify's classifier and waits out THROTTLED.
  const response = await requestClassified(ctx.http, request, (answer) => graphqlError(answer.body, operation), {
    attempts: THROTTLED_ATTEMPTS,
    maxWaitMs: MAX_THROTTLE_WAIT_MS,
  });
  const body = response.body;
  if (!isRecord(body) || !isRecord(body.data))
    throw new PlatformError({
      kind: 'server',
      httpStatus: response.status,
      message: `${operation}: the answer has no data object`,
      requestSent: true,
    });
  return parseAnswer(answer, body.data, response.status);
}
