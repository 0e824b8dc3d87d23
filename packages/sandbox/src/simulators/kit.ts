/**
 * The simulator kit: SANDBOX's synthetic books served in another platform's own native API, so that in the sandbox
 * environment a client can connect XERO or QUICKBOOKS and develop against their real `platform_data` shapes with books
 * that add up and writes that apply (docs/simulators.md).
 *
 * A simulator is a translator, not a second store: every read renders the account's SANDBOX records (PostgreSQL,
 * shared by every process) in the platform's shapes, and every write is turned into a SANDBOX write, applied once per
 * idempotency key. The kit does what every platform's OAuth 2.0 has in common (consent page, single-use codes, token
 * endpoint, bearer checks: simulators/oauth.ts) and the transport (simulators/fetch.ts: in process for the
 * connector, over HTTP for the browser); a platform's simulator only maps its paths and shapes.
 */
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import type { NativeOf, NativeRecord } from '../native.ts';
import type { VariantWriteRequest, WriteRequest, WriteResult } from '../platform.ts';

/**
 * An object as a simulator renders it in the platform's contract type `T` (Stripe's SDK types, Xero's generated ones):
 * every field it writes has the contract's name and type, at any depth; fields it leaves out are optional here, and
 * the contract tests check what the platform requires.
 */
export type Rendered<T> = T extends readonly (infer E)[] ? Rendered<E>[] : T extends object ? { [K in keyof T]?: Rendered<T[K]> } : T;

/** One API call as the platform would receive it. */
export interface SimulatorRequest {
  /** Upper case. */
  method: string;
  /** The URL's path as the platform has it (the host is ignored), e.g. /api.xro/2.0/Invoices/<id>. */
  path: string;
  query: URLSearchParams;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON; form fields for application/x-www-form-urlencoded; bytes for anything else; undefined when empty. */
  body: unknown;
}

/** The platform's answer: a JSON body unless `body` is a string (with its content-type) or bytes. */
export interface SimulatorAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A deleted record as the platform last had it. */
export interface DeletedRecord {
  id: string;
  /** ISO 8601. */
  deletedAt: string;
  record: NativeRecord;
}

/** One SANDBOX account's books, as a simulator reads and writes them. */
export interface SimulatorBooks {
  readonly accountKey: string;
  /** The SANDBOX clock's now (epoch ms), the one the account's records are stamped by; Date.now() when absent. */
  now?(): number;
  readonly company: { name: string; country: string; currency: string };
  /** Every live record of a type, by platform id, after the account's clock caught up. */
  all<T extends keyof NativeOf>(type: T): Promise<NativeOf[T][]>;
  get<T extends keyof NativeOf>(type: T, id: string): Promise<NativeOf[T] | null>;
  /** Records of a type deleted so far. */
  deleted(type: UnifiedObjectType): Promise<DeletedRecord[]>;
  /** A SANDBOX create, update or delete, applied once per idempotency key; a refusal is thrown as a NativeError. */
  write(request: WriteRequest): Promise<WriteResult>;
  /** A product's variant created, changed or deleted (SANDBOX's /Products/<id>/Variants), once per idempotency key. */
  writeVariant(request: VariantWriteRequest): Promise<WriteResult>;
}

/** What an API call's bearer token grants: one account, seen as the platform's tenant. */
export interface SimulatorGrant {
  accountKey: string;
  /** The tenant id the platform shows (Xero: the organisation's UUID; QuickBooks: the realm id). */
  tenantId: string;
  scope: string;
  books: SimulatorBooks;
  /**
   * A token for a link the platform hands out to be fetched without the bearer token (QuickBooks' presigned file
   * links): put it in the simulator's `linkTokenParam`, and the kit answers that request as this grant's.
   */
  linkToken(seconds: number): Promise<string>;
}

export interface SimulatorOAuth {
  /** Path of the platform's consent page, e.g. /identity/connect/authorize. */
  authorizePath: string;
  /** Path of its token endpoint, e.g. /connect/token. */
  tokenPath: string;
  /** Seconds an access token lives (Xero 1,800; QuickBooks 3,600). */
  accessTokenSeconds: number;
  /**
   * More parameters the platform adds to the callback (QuickBooks: realmId; Shopify: shop, host, timestamp; Stripe: the scope granted). `consent`:
   * the consent request's parameters (Shopify's shop travels in `shop`, see `hostParam`).
   */
  callbackParams?(tenantId: string, consent: URLSearchParams): Record<string, string>;
  /** Signs the finished callback's parameters with the app's secret, as Shopify does (its `hmac`); none by default. */
  signCallback?(params: URLSearchParams, clientSecret: string): void;
  /** False for platforms whose consent address has no response_type (Shopify); default true: it must be "code". */
  responseType?: boolean;
  /**
   * The query parameter that carries the consent address's host when the browser is moved onto the service's mount:
   * Shopify's consent page lives on the shop's own domain, which names the shop (`shop`).
   */
  hostParam?: string;
  /**
   * How the token endpoint is asked: 'oauth2' (grant_type, redirect_uri, refresh tokens: Xero, Intuit) or 'code' (a
   * code exchanged once for a token that never expires, with no grant_type, redirect_uri or refresh token: Shopify).
   */
  tokenRequest?: 'oauth2' | 'code';
  /** The request header carrying the access token instead of `Authorization: Bearer` (Shopify: x-shopify-access-token). */
  accessTokenHeader?: string;
  /**
   * Refuses a consent before a code is issued (Shopify: the shop named must be the signed-in account's); the message
   * is shown on the consent page. None by default.
   */
  consentRefusal?(accountKey: string, consent: URLSearchParams): string | null;
  /**
   * How the token endpoint knows the app: `id-and-secret` (the default: client id and secret by HTTP Basic or form, as
   * Xero and Intuit ask) or `secret` (Stripe Connect: the app's secret key alone, as a Bearer token, as HTTP Basic user
   * or as the form's client_secret; no client id).
   */
  clientAuth?: 'id-and-secret' | 'secret';
  /** Whether the code exchange repeats the redirect_uri (RFC 6749 4.1.3; the default). Stripe's token endpoint takes none. */
  exchangeRedirectUri?: boolean;
  /** The token endpoint's answer in the platform's own shape; default RFC 6749's with x_refresh_token_expires_in. */
  tokenAnswer?(issued: IssuedTokens, tenantId: string): Record<string, unknown>;
  /** Whether an API call may also carry the access token as HTTP Basic user, password empty (Stripe: `curl -u key:`). */
  basicAccessToken?: boolean;
}

/** What the token endpoint issued, for a platform's own answer shape. */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  scope: string;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
}

export interface PlatformSimulator {
  /** The connector id it stands for: XERO, QUICKBOOKS. */
  platform: string;
  /** The platform's name, for the consent page. */
  name: string;
  oauth: SimulatorOAuth;
  /** The tenant id the platform shows for an account (stable: derived from the account key). */
  tenantId(accountKey: string): string;
  /** Answers an API call whose bearer token the kit has checked. Paths it does not know: 404 in the platform's format. */
  handle(request: SimulatorRequest, grant: SimulatorGrant): Promise<SimulatorAnswer>;
  /**
   * Links fetched without a bearer token (QuickBooks' presigned file links): the query parameter carrying a `linkToken`
   * (e.g. X-Amz-Security-Token) and the path they live under. The kit takes a link token for a GET under that path only.
   */
  links?: { tokenParam: string; pathPrefix: string };
  /** The platform's answer to a missing, unknown or expired bearer token; default an RFC 6750 401. */
  unauthorized?(): SimulatorAnswer;
}
