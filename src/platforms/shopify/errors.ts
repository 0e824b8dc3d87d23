/**
 * Shopify's failures, sorted in one place into the shared PlatformError kinds (src/platforms/errors.ts):
 *
 * - HTTP answers: 401 a revoked or uninstalled token (unauthorized: the connection needs re-linking), 402 a frozen
 *   shop (billing: "Payment Required"), 403 a missing scope, 423 a locked shop (forbidden), 429 and 5xx retried by the
 *   shared HTTP layer (Retry-After kept);
 * - GraphQL errors inside a 200 (shopify.dev/docs/api/admin-graphql#status_and_error_codes): THROTTLED (the cost
 *   bucket is short: rate_limited, retried after the time the throttle status says the bucket needs to refill),
 *   ACCESS_DENIED (forbidden), SHOP_INACTIVE (billing), INTERNAL_SERVER_ERROR (server, retried), MAX_COST_EXCEEDED
 *   and query validation errors (bad_request: our query is wrong, never retried).
 */
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import { isRecord } from '../json.ts';
import type { PlatformResponse } from '../limit-types.ts';

const GRAPHQL_CODE_KINDS: Readonly<Record<string, PlatformErrorKind>> = {
  THROTTLED: 'rate_limited',
  ACCESS_DENIED: 'forbidden',
  SHOP_INACTIVE: 'billing',
  INTERNAL_SERVER_ERROR: 'server',
  MAX_COST_EXCEEDED: 'bad_request',
};

/** The answer's throttle status (extensions.cost.throttleStatus), when it gives one. */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface QueryCost {
  requestedQueryCost: number | null;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus | null;
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** extensions.cost of a GraphQL answer, checked field by field; null when the answer has none. */
export function queryCostOf(body: unknown): QueryCost | null {
  if (!isRecord(body) || !isRecord(body.extensions) || !isRecord(body.extensions.cost)) return null;
  const cost = body.extensions.cost;
  const throttle = isRecord(cost.throttleStatus) ? cost.throttleStatus : null;
  const maximumAvailable = num(throttle?.maximumAvailable);
  const currentlyAvailable = num(throttle?.currentlyAvailable);
  const restoreRate = num(throttle?.restoreRate);
  return {
    requestedQueryCost: num(cost.requestedQueryCost),
    actualQueryCost: num(cost.actualQueryCost),
    throttleStatus:
      maximumAvailable === null || currentlyAvailable === null || restoreRate === null ? null : { maximumAvailable, currentlyAvailable, restoreRate },
  };
}

/** Points the answer says the call cost, for the cost bucket. A throttled query ran nothing and is charged nothing. */
export function actualCostOf(response: PlatformResponse): number | null {
  const cost = queryCostOf(response.body);
  if (cost === null) return null;
  if (cost.actualQueryCost !== null) return cost.actualQueryCost;
  return graphqlCodes(response.body).includes('THROTTLED') ? 0 : null;
}

function graphqlCodes(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors.map((error) =>
    isRecord(error) && isRecord(error.extensions) && typeof error.extensions.code === 'string' ? error.extensions.code : '',
  );
}

/** How long until the bucket holds the query's requested cost again, from the throttle status; null when unknown. */
export function throttleWaitMs(cost: QueryCost | null): number | null {
  const status = cost?.throttleStatus ?? null;
  const requested = cost?.requestedQueryCost ?? null;
  if (status === null || requested === null || status.restoreRate <= 0) return null;
  return Math.max(0, Math.ceil(((requested - status.currentlyAvailable) / status.restoreRate) * 1000));
}

/**
 * The PlatformError a 200 answer's `errors` stand for, or null when it has none. Shopify answers partial data with
 * errors for some fields too; any error fails the call, since a record read half is not a record to store.
 */
export function graphqlError(body: unknown, operation: string): PlatformError | null {
  if (!isRecord(body) || !Array.isArray(body.errors) || body.errors.length === 0) return null;
  const codes = graphqlCodes(body);
  const messages = body.errors.map((error) => (isRecord(error) && typeof error.message === 'string' ? error.message : 'unknown error'));
  const known = codes.find((code) => GRAPHQL_CODE_KINDS[code] !== undefined);
  const kind: PlatformErrorKind = known === undefined ? 'bad_request' : (GRAPHQL_CODE_KINDS[known] ?? 'bad_request');
  return new PlatformError({
    kind,
    httpStatus: 200,
    code: known ?? codes.find((code) => code !== '') ?? null,
    message: `${operation}: ${messages.join('; ')}`.slice(0, 1000),
    retryAfterMs: kind === 'rate_limited' ? throttleWaitMs(queryCostOf(body)) : null,
    rawExcerpt: JSON.stringify(body.errors).slice(0, 2000),
    requestSent: true,
  });
}

/** Shopify's own statuses beyond the shared table: 402 a frozen shop, 423 a locked one. */
export function classifyShopifyStatus(error: PlatformError, response: PlatformResponse): PlatformError {
  if (response.status === 423)
    return new PlatformError({ kind: 'forbidden', httpStatus: 423, message: `The shop is locked: ${error.platformMessage}`, headers: error.headers });
  return error;
}

/** One of a mutation's userErrors (UserError, or a coded one such as ProductSetUserError). */
export interface ShopifyUserError {
  field?: readonly string[] | null;
  message?: string;
  code?: string | null;
}

/** userErrors codes that are not the input's fault: the record is gone, or another one holds the value. */
const USER_ERROR_KINDS: Readonly<Record<string, PlatformErrorKind>> = {
  NOT_FOUND: 'not_found',
  PRODUCT_DOES_NOT_EXIST: 'not_found',
  PRODUCT_VARIANT_DOES_NOT_EXIST: 'not_found',
  AT_LEAST_ONE_VARIANT_DOES_NOT_BELONG_TO_THE_PRODUCT: 'not_found',
  VARIANT_ALREADY_EXISTS: 'duplicate',
  TAKEN: 'duplicate',
  HANDLE_NOT_UNIQUE: 'duplicate',
  DUPLICATED_VALUE: 'duplicate',
};

/** Uncoded UserErrors (productUpdate, productDelete) say a record is missing only in their message. */
const MISSING = /does not exist|not found|could not be found/i;

/**
 * The PlatformError a mutation's userErrors stand for, or null when it has none. Shopify answers a refused mutation
 * 200 with data and userErrors (shopify.dev/docs/api/admin-graphql#userErrors): nothing was written. A missing record
 * is not_found, a value another record holds duplicate (409), anything else the input's fault (bad_request), each
 * with the field Shopify names.
 */
export function userErrorsError(userErrors: readonly ShopifyUserError[] | null | undefined, operation: string): PlatformError | null {
  if (userErrors === null || userErrors === undefined || userErrors.length === 0) return null;
  const described = userErrors.map((error) => {
    const field = error.field === null || error.field === undefined || error.field.length === 0 ? '' : `${error.field.join('.')}: `;
    return `${field}${error.message ?? 'refused'}`;
  });
  const coded = userErrors.map((error) => USER_ERROR_KINDS[error.code ?? ''] ?? null).find((kind) => kind !== null);
  const kind: PlatformErrorKind = coded ?? (userErrors.some((error) => MISSING.test(error.message ?? '')) ? 'not_found' : 'bad_request');
  return new PlatformError({
    kind,
    httpStatus: 200,
    code: userErrors.find((error) => typeof error.code === 'string')?.code ?? null,
    message: `${operation}: ${described.join('; ')}`.slice(0, 1000),
    rawExcerpt: JSON.stringify(userErrors).slice(0, 2000),
    requestSent: true,
  });
}
