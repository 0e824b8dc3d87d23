/**
 * The one interface every platform implements. A connector is a folder under
 * src/platforms/<name>/ whose index exports a `Connector`; src/platforms/registry.ts
 * registers it in one line. Connectors are small and typed: they describe how to
 * authenticate, how to read each object (full, incremental, deletions), how to map a
 * platform record to the unified object, and how to write it back. Everything
 * shared (HTTP retries, rate limits, token refresh, error classes, storing,
 * change detection) lives outside the connector.
 */
import type { PlatformHttp } from './http.ts';
import type { PlatformLimits } from './limit-types.ts';
import type { PolledExchange, PolledPlatform } from './polled.ts';

export type { CostBucket, OperationRate, PlatformLimits } from './limit-types.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import type { Environment } from '../tenants/types.ts';

export type PlatformKind = 'accounting' | 'commerce' | 'payments' | 'bank_feed';

/** Credential fields of the spec's `POST /connections/create` body. */
export type CredentialField =
  | 'oauth_client_id'
  | 'oauth_client_secret'
  | 'oauth_access_token'
  | 'oauth_refresh_token'
  | 'store_url'
  | 'basic_username'
  | 'basic_password'
  | 'api_key'
  | 'marketplace_access_key_id'
  | 'marketplace_secret_access_key'
  | 'marketplace_seller_region'
  | 'marketplace_selling_partner_role'
  | 'country'
  | 'partner_id'
  | 'shop_id'
  | 'key'
  | 'account_id'
  | 'realm_id'
  | 'environment'
  | 'token_id'
  | 'consumer_key'
  | 'consumer_secret'
  | 'store_name'
  | 'token_secret'
  | 'seller_id'
  | 'tenant_id'
  | 'user_id'
  | 'organization_id'
  | 'region';

export type Credentials = Partial<Record<CredentialField, string>>;

export interface CredentialFieldSpec {
  field: CredentialField;
  label: string;
  required: boolean;
  secret: boolean;
}

/** OAuth 2.0 tokens as stored (encrypted) per connection. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string | null;
  /** ISO 8601; null when the platform does not say. */
  expiresAt: string | null;
  /** Platform tenant/realm the tokens act on (Xero tenant id, QBO realm id). */
  tenantId: string | null;
  /**
   * The data centre the grant lives in, named at the callback (Zoho's `accounts-server`): its token endpoint refreshes
   * the grant. Absent for platforms with one host.
   */
  host?: string;
}

/** The organisation's own OAuth app registered for this platform (admin API). */
export interface OAuthAppCredentials {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface OAuthTenant {
  id: string;
  name: string;
}

/**
 * Query parameters the platform adds to its OAuth callback besides code and state, by name: those the connector
 * declares in `callbackParams` (QuickBooks Online's `realmId`; Shopify's `shop`, `hmac`, `host`; Amazon's
 * `selling_partner_id`), as sent. The link flow passes them on without knowing what they mean.
 */
export type OAuthCallbackParams = Readonly<Record<string, string>>;

/**
 * Parameters of the OAuth callback the link flow itself reads; a connector cannot claim them, except `state`, which it
 * may declare to receive as well (read only: the link flow has checked it), for platforms that sign it with the rest
 * (Shopify's callback hmac covers every parameter but itself).
 */
export const OAUTH_CALLBACK_RESERVED = ['state', 'code', 'error', 'error_description'] as const;

/**
 * A value the end user gives before the consent page, because the consent address or the API host depends on it
 * (Shopify's shop domain, {shop}.myshopify.com; Amazon's marketplace region). Named after the spec's credential field
 * that holds it (`store_url`, `store_name`, `region`), so `POST /connections/create` accepts it under that name. The
 * link flow asks for it, checks it against `pattern`, keeps it with the OAuth state, passes it to `authorizeUrl`,
 * `exchangeCode` and `refresh`, and stores it sealed as the connection's credentials: every later call sees it in
 * `ctx.credentials`.
 */
export interface AuthorizationInputField {
  field: CredentialField;
  label: string;
  /** The whole value must match (anchor it: ^…$), after trimming and, with `lowercase`, lower-casing. */
  pattern: RegExp;
  /** Said to the end user when the value does not match (an example helps: "like my-shop.myshopify.com"). */
  hint: string;
  /** Domains and region codes are case-insensitive: compare and store them lower-case. */
  lowercase?: boolean;
  /**
   * The field's value from the link's store-name prefill parameter (`store_name`: Shopify's `my-shop` gives
   * `my-shop.myshopify.com`). When it gives a value that matches `pattern`, the link page starts the flow at once with
   * it instead of asking; otherwise the form asks, pre-filled with it.
   */
  fromStoreName?: (storeName: string) => string;
}

/** The authorisation input of one connection, by field; empty for platforms that ask for none. */
export type AuthorizationInput = Credentials;

export type AuthSpec =
  | {
      type: 'credentials';
      fields: readonly CredentialFieldSpec[];
      /**
       * A session the platform hands out for the credentials (Sage Intacct's session id with its expiry): kept like
       * OAuth tokens (accessToken: the session id) and renewed by logging in again on expiry or a 401, through the
       * advisory-locked token path (tokens.ts), so two processes never both log in. Absent: every call carries the
       * credentials themselves (API key, Basic, OAuth 1.0a signatures).
       */
      session?: CredentialSession;
    }
  | {
      type: 'oauth2';
      /** Names of the callback's query parameters exchangeCode needs (OAuthCallbackParams); none when absent. */
      callbackParams?: readonly string[];
      /** Values the end user gives before the consent page (AuthorizationInputField); none when absent. */
      authorizationInput?: readonly AuthorizationInputField[];
      /**
       * Consent page address the end user is sent to. `input`: the checked authorizationInput values; the service always
       * passes it (here, to exchangeCode and to refresh), optional so connectors and tests that need none stay as they are.
       */
      authorizeUrl(app: OAuthAppCredentials, state: string, scope: string | null, input?: AuthorizationInput): string;
      exchangeCode(
        ctx: AuthContext,
        app: OAuthAppCredentials,
        code: string,
        callback: OAuthCallbackParams,
        input?: AuthorizationInput,
      ): Promise<OAuthTokens>;
      /** `stored`: the tokens being refreshed (their `host`); the token manager always passes them. */
      refresh(
        ctx: AuthContext,
        app: OAuthAppCredentials,
        refreshToken: string,
        input?: AuthorizationInput,
        stored?: OAuthTokens,
      ): Promise<OAuthTokens>;
      /** Organisations the tokens can reach; several → the link flow asks the user to pick. */
      listTenants?(ctx: AuthContext, tokens: OAuthTokens): Promise<OAuthTenant[]>;
      /**
       * Credentials `POST /connections/create` also takes instead of the OAuth flow (Stripe's secret or restricted API
       * key besides Stripe Connect): checked like a credentials platform's (identify is called with them, no tokens).
       * Absent: the platform connects through OAuth only. The link page still offers the OAuth flow only.
       */
      credentials?: readonly CredentialFieldSpec[];
    };

export interface CredentialSession {
  /** Logs in with the connection's credentials: the session as tokens (expiresAt when the platform says). */
  login(ctx: AuthContext, credentials: Credentials): Promise<OAuthTokens>;
}

/** Who the connected account is; store_unique_id de-duplicates connections. */
export interface AccountIdentity {
  storeUniqueId: string;
  storeName: string | null;
  /**
   * The account's own domain where it has one (Shopify's {shop}.myshopify.com): served as the connection's
   * `store_domain`, and matched, besides store_unique_id, against the account a platform webhook names.
   */
  storeDomain?: string | null;
}

export interface AuthContext {
  http: PlatformHttp;
  signal: AbortSignal;
  /** The connection's environment: platforms with separate sandbox hosts (QuickBooks Online) pick theirs from it. */
  environment: Environment;
}

/**
 * A connection's OAuth tokens during one job. Connectors never cache an access
 * token themselves: they ask here before each call (src/platforms/oauth-request.ts
 * does it for them), so a token that expires mid-sync is refreshed, once,
 * whichever process notices first.
 */
export interface OAuthSession {
  /** Tokens to call with; refreshed first when they expire within a minute. */
  tokens(): Promise<OAuthTokens>;
  /** The platform refused `accessToken` (401): refresh unless another caller already did, and return the tokens to retry with. */
  rejected(accessToken: string): Promise<OAuthTokens>;
}

/** What a connector gets on every call for one connection. */
export interface ConnectorContext extends AuthContext {
  connectionId: string;
  credentials: Credentials;
  /** Present for OAuth connections: the tokens as the job started. Call through `oauth` for fresh ones. */
  tokens: OAuthTokens | null;
  /** Present for OAuth connections: fresh tokens on demand, refreshed on expiry and after a 401. */
  oauth: OAuthSession | null;
  /**
   * Service id of another object of this connection, from its platform id.
   * Service ids are derived deterministically, so links resolve without lookups
   * and stay stable across syncs. Null/undefined/'' in → null out.
   */
  ref(type: UnifiedObjectType, platformId: string | number | null | undefined): string | null;
  /** Platform id of an object of this connection, from its service id (writes). */
  platformIdOf(type: UnifiedObjectType, serviceId: string): Promise<string | null>;
  /** A platform that calls us (Connector.polled): the job's platform calls, queued until the platform asks for them. */
  polled?: PolledExchange | null;
}

/** One record as read from the platform. */
export interface PlatformRecord {
  platformId: string;
  /** The raw platform record, served as platform_data. */
  raw: Record<string, unknown>;
  /** True when the platform reports the record deleted (tombstone). */
  deleted?: boolean;
}

/** Arguments to a read of one object type. */
export interface ReadRequest {
  /**
   * Incremental cursor returned by the previous completed read of this object
   * (opaque to the engine: a timestamp for Xero, a CDC time for QBO, …). Null = full read.
   */
  since: string | null;
  /** Optional window on the record's business date, for historical batches and backfills. */
  window: { start: string; end: string } | null;
  /** Page token from the previous page of this same read; null for the first page. */
  pageToken: string | null;
}

/** What a bulk export is asked for: the read's incremental cursor and business-date window (see ReadRequest). */
export interface ExportRequest {
  since: string | null;
  window: { start: string; end: string } | null;
}

/** Where a started export is. `resultCursor`: where its results begin when ready (null: at the start). */
export type ExportStatus =
  { status: 'running'; retryAfterMs?: number } | { status: 'ready'; resultCursor?: string | null } | { status: 'failed'; message: string };

export interface ExportPage {
  records: PlatformRecord[];
  deletedPlatformIds?: string[];
  /** Null when this was the last page of the results. */
  nextCursor: string | null;
  /** On the last page: the cursor to pass as `since` next time (see ReadPage.nextSince). */
  nextSince?: string | null;
}

/**
 * A read the platform serves as an asynchronous export (Shopify bulk operations, Amazon reports, NetSuite SuiteQL
 * paging): started once, polled until ready, then read page by page. The sync runner drives it (src/sync/bulk-read.ts):
 * it keeps the export id, so a run that restarts after a crash polls the same export instead of starting another, and
 * between polls it gives its worker back (the run is queued again for `retryAfterMs`).
 */
export interface BulkRead {
  /** Asks the platform for the export; returns the platform's id of it. */
  startExport(ctx: ConnectorContext, request: ExportRequest): Promise<string>;
  pollExport(ctx: ConnectorContext, exportId: string): Promise<ExportStatus>;
  /** One page of a ready export's results; `cursor` is null for the first when the status gave none. */
  readExportPage(ctx: ConnectorContext, exportId: string, cursor: string | null): Promise<ExportPage>;
}

export interface ReadPage {
  records: PlatformRecord[];
  /** Platform ids the platform reports deleted since `since` (when it reports deletions separately). */
  deletedPlatformIds?: string[];
  /** Null when this was the last page. */
  nextPageToken: string | null;
  /**
   * On the last page: the cursor to pass as `since` next time.
   * Connectors compute it from the platform's clock where they can, not ours.
   */
  nextSince?: string | null;
}

export type WriteOperation = 'create' | 'update' | 'delete';

export interface WriteContext extends ConnectorContext {
  /** Stable per logical write; passed to platforms that accept one (Xero Idempotency-Key, QBO requestid). */
  idempotencyKey: string;
}

/**
 * How one unified object type is read and written on a platform. `U` is the
 * unified object without the service-owned fields (id, last_synced_at, platform_data).
 */
export interface ObjectHandler<U = Record<string, unknown>> {
  /** Paged reads. With `bulk` too, it serves the incremental reads and the export the full ones. */
  read(ctx: ConnectorContext, request: ReadRequest): Promise<ReadPage>;
  /** Full reads (no `since`) through an asynchronous export (BulkRead); incremental ones stay with `read`. */
  bulk?: BulkRead;
  /** Unified fields from a raw record; links via ctx.ref. Pure. */
  map(record: PlatformRecord, ctx: ConnectorContext): U;
  /** Business date used for windows and oldest/newest reporting (ISO 8601), if any. */
  businessDate?(record: PlatformRecord): string | null;
  create?(ctx: WriteContext, input: Record<string, unknown>): Promise<PlatformRecord>;
  update?(ctx: WriteContext, platformId: string, patch: Record<string, unknown>): Promise<PlatformRecord>;
  delete?(ctx: WriteContext, platformId: string): Promise<void>;
  /**
   * After an indeterminate create (timeout, 5xx), find the record that create may
   * have made, so a retry never creates twice. Required for every create on
   * platforms without idempotency keys.
   */
  findCreated?(ctx: WriteContext, input: Record<string, unknown>): Promise<PlatformRecord | null>;
  /** Writes of records kept inside this object (a product's `variants`), by the array field that holds them (src/writes/nested.ts). */
  nested?: Readonly<Record<string, NestedHandler>>;
}

/** A nested write's outcome: the parent record as the platform has it afterwards, and the id of the nested record written. */
export interface NestedWriteResult {
  parent: PlatformRecord;
  /** The nested record's id as the unified model serves it (a variant's `id`). */
  nestedId: string;
}

/**
 * Creates, updates and deletes records kept inside a parent object. Each is sent with ctx.idempotencyKey where the
 * platform takes one; a create on a platform without keys must find what an interrupted attempt made before sending again.
 */
export interface NestedHandler {
  create?: (ctx: WriteContext, parentPlatformId: string, input: Record<string, unknown>) => Promise<NestedWriteResult>;
  update?: (ctx: WriteContext, parentPlatformId: string, nestedId: string, patch: Record<string, unknown>) => Promise<NestedWriteResult>;
  delete?: (ctx: WriteContext, parentPlatformId: string, nestedId: string) => Promise<NestedWriteResult>;
}

/** A file sent with an attachment upload. */
export interface UploadedFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

/** One statement line sent to a bank feed account (POST /accounting/bank_feeds/transactions). */
export interface BankFeedTransactionInput {
  /** The institution's own id of the line; platforms de-duplicate on it. */
  internal_transaction_id: string;
  /** ISO 8601 date or date-time. */
  transaction_date: string;
  /** Signed: money in is positive, money out negative. */
  amount: number;
  description: string;
  payee_name?: string | null;
  reference?: string | null;
  running_balance?: number | null;
}

export interface BankFeedBatchResult {
  /** The platform's id of the batch (statement), when it has one. */
  batchPlatformId: string | null;
  accepted: number;
  /** Lines the platform already had (same internal_transaction_id), skipped. */
  duplicates: number;
  /** The feed account as it is after the batch (its feed_status may have changed). */
  feedAccount: PlatformRecord;
}

/** The objects the reference defines custom fields for (GET /accounting/{entityType}/custom_fields, 2024-08-31). */
export const CUSTOM_FIELD_OBJECTS = ['bill', 'expense', 'invoice', 'invoice_payment', 'journal_entry'] as const;
export type CustomFieldObject = (typeof CUSTOM_FIELD_OBJECTS)[number];

/** A field the business defined for an object on its platform: the reference's CustomField (2024-08-31). */
export interface CustomFieldDefinition {
  /** The platform's key of the field. */
  key: string;
  name: string;
  description: string;
  required: boolean;
  type: 'boolean' | 'select' | 'string' | 'number' | 'multiselect';
  /** The choices of a select or multiselect field; empty for the other types. */
  options: { text: string; value: string }[];
  default: string | boolean | number | null;
}

/** An object's custom fields: those of the record itself and those of its lines. */
export interface CustomFieldDefinitions {
  entity: CustomFieldDefinition[];
  lineItems: CustomFieldDefinition[];
}

/** What the platform holds for the account in one currency (the commerce balance). */
export interface PlatformBalance {
  /** Available to pay out, in major units. */
  amount: number;
  /** ISO 4217, upper case. */
  iso_currency_code: string;
  /** The platform's own entries for this currency (Stripe's available and pending amounts). */
  platform_data: Record<string, unknown>;
}

/**
 * Operations beyond create/update/delete of one object. Each is optional: an
 * absent action answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM. All receive
 * the write's idempotency key in ctx, as creates do, and must honour it: a
 * repeat after an interrupted attempt must not apply the action twice.
 * Declared as properties: the service calls them detached from the object.
 */
export interface ConnectorActions {
  /** Uploads a file and attaches it to a record; returns the attachment record (read and mapped like synced ones). */
  uploadAttachment?: (ctx: WriteContext, parent: { type: UnifiedObjectType; platformId: string }, file: UploadedFile) => Promise<PlatformRecord>;
  /** Address of the platform page where the business links a bank feed account to a ledger account. */
  bankFeedMappingLink?: (ctx: WriteContext, feedPlatformId: string) => Promise<{ url: string; expiresAt: string | null }>;
  /**
   * The content of a synced attachment, for its signed file_url (GET /files/:id). Platforms that keep files
   * behind their own authentication implement it; without it only files stored with the record can be served.
   */
  downloadAttachment?: (ctx: ConnectorContext, attachment: PlatformRecord) => Promise<{ contentType: string; content: Buffer }>;
  /** The custom fields the business defined for an object, as the platform says now (read live, not synced). */
  customFields?: (ctx: ConnectorContext, type: CustomFieldObject) => Promise<CustomFieldDefinitions>;
  /**
   * The account's balance with the platform now, one entry per currency (GET /commerce/balance). Read live, never
   * stored: it changes with every charge and has no history or id to keep.
   */
  readBalance?: (ctx: ConnectorContext) => Promise<PlatformBalance[]>;
  /**
   * The PDF of a synced invoice, for its signed pdf_link (GET /accounting/invoices/:id/pdf): the platform's own
   * rendering, or one the connector makes where the platform has none (SANDBOX). Without it the platform has no PDFs.
   */
  invoicePdf?: (ctx: ConnectorContext, invoice: PlatformRecord) => Promise<{ contentType: string; content: Buffer }>;
  /** Sends a batch of statement lines to a bank feed account. */
  sendBankFeedTransactions?: (ctx: WriteContext, feedPlatformId: string, transactions: BankFeedTransactionInput[]) => Promise<BankFeedBatchResult>;
  /** Records a shipment of an order's lines; the order afterwards, and the platform id of the new fulfillment in it. */
  fulfillOrder?: (ctx: WriteContext, orderPlatformId: string, fulfillment: FulfillmentInput) => Promise<FulfillmentResult>;
}

/** A shipment as POST /commerce/orders/:id/fulfillments takes it (src/writes/commerce-bodies.ts); line ids are the order's. */
export interface FulfillmentInput {
  carrier: string;
  tracking_number: string;
  service?: string;
  tracking_url?: string;
  location_id?: string;
  /** Empty: every line not yet fulfilled, in full. A line without quantity: all of it that is left. */
  line_items: { line_item_id: string; quantity?: number }[];
  additional_fields?: { notify_customer?: boolean };
}

export interface FulfillmentResult {
  order: PlatformRecord;
  fulfillmentPlatformId: string;
}

export interface ObjectCapabilities {
  read: boolean;
  /** How changes since the last sync are found. */
  incremental: 'cursor' | 'none';
  /** Whether the platform reports deletions, or we detect them by comparing full listings. */
  deletions: 'reported' | 'full_listing' | 'none';
  /** Whether the `filter` and `sort` list parameters work for this object on this platform. */
  filter: boolean;
  fetchByPlatformId: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
  /** Unified fields this platform never fills (always null); for docs/platforms.md. */
  unmappedFields?: readonly string[];
  /** Platform fields served only in platform_data (no unified field holds them); for docs/platforms.md. */
  platformDataOnly?: readonly string[];
  /**
   * Attachments only: the objects whose attachments the platform has (read: listed and fetched under the object's
   * path) and those it takes uploads for (upload, through the `uploadAttachment` action). Another object's
   * attachment endpoints answer ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.
   */
  attachedTo?: { read: readonly UnifiedObjectType[]; upload: readonly UnifiedObjectType[] };
}

/** What one platform notification says changed: in which account, and which objects (their platform ids when known). */
export interface InboundChange {
  /** The account the change happened in, as the connection stores it in store_unique_id (Xero tenant, QBO realm). */
  account: string;
  type: UnifiedObjectType;
  /** Platform id of the changed object; null when the notification names only the kind of object. */
  platformId: string | null;
}

/** A platform notification that the business took our access away (Shopify's app/uninstalled, Stripe's account.application.deauthorized). */
export interface InboundRevocation {
  /** As InboundChange.account: the store_unique_id (or store_domain) of the connection. */
  account: string;
  /** What the platform said, for the log and the connection's status reason. */
  reason: string;
}

/** Headers of a received platform webhook, by lower-case name. */
export type InboundHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The platform's own webhooks (spec: "Real-time entity webhooks … exist for a few accounting and payment platforms"):
 * how a notification is verified and what it says changed. The service receives them at
 * /platform-webhooks/<platform id>/<organization id>/<environment>, verifies them with the webhook key the operator
 * registered on the organisation's OAuth app, records them, acknowledges them within the platform's deadline and runs
 * an incremental sync of the changed types of each connection named (src/sync/inbound-webhooks.ts).
 */
export interface InboundWebhooks {
  /** True when the signature headers match the raw body under the app's webhook key. */
  verify(rawBody: Buffer, headers: InboundHeaders, webhookKey: string): boolean;
  /**
   * The changes a verified notification names; null when it is not the platform's notification shape. `headers` for
   * platforms that name the topic or the account there (Shopify's X-Shopify-Topic and X-Shopify-Shop-Domain).
   */
  changes(body: unknown, headers: InboundHeaders): InboundChange[] | null;
  /**
   * Accounts a verified notification says revoked our access: each connection to one moves to needs_reauth with
   * CONNECTION_NEEDS_UPDATE, at once, without waiting for a sync to be refused. Absent: the platform sends none.
   */
  revocations?(body: unknown, headers: InboundHeaders): InboundRevocation[];
  /** How soon the platform wants its answer (documentation; the receiver answers before any sync runs). */
  acknowledgeWithinMs: number;
  /**
   * The platform wants answers without a body (Xero: "There is no body in the response"): its 200 and its 401 are sent
   * empty, the summary goes to the log only. Absent: the JSON summary or error, which Stripe's dashboard shows.
   */
  answersWithoutBody?: boolean;
}

export interface Connector {
  /** Upper-case platform identifier of the spec (SANDBOX, XERO, QUICKBOOKS, …). */
  id: string;
  name: string;
  kind: PlatformKind;
  auth: AuthSpec;
  /** Calls the platform once to prove the credentials work and learn who the account is. */
  identify(ctx: ConnectorContext): Promise<AccountIdentity>;
  objects: Partial<Record<UnifiedObjectType, { capabilities: ObjectCapabilities; handler: ObjectHandler }>>;
  /**
   * Marketplaces a marketplace platform sells on (the spec's marketplace_seller_marketplace values); absent for every
   * other platform, which then refuses that field at creation instead of ignoring it.
   */
  marketplaces?: readonly string[];
  /** Platform request limits as the platform states them, enforced per connection by the shared HTTP layer. */
  limits: PlatformLimits;
  /** The platform's webhooks, where it has them and we receive them. */
  webhooks?: InboundWebhooks;
  /** The platform calls us (QuickBooks Desktop's Web Connector) instead of being called: src/platforms/polled.ts. */
  polled?: PolledPlatform;
  /** Operations beyond the per-object writes (attachments, bank feeds). */
  actions?: ConnectorActions;
  /** Address of an object on the platform, for platform_url. */
  platformUrl?(type: UnifiedObjectType, platformId: string, ctx: ConnectorContext): string | null;
  /** For docs/platforms.md: what the connector is tested against, and settings an operator may need. */
  documentation?: {
    /** One or two sentences: the stand-in or platform the tests run against, and its source. */
    testedAgainst: string;
    /** Environment variables the connector reads (addresses, overrides), with a short description. */
    settings?: readonly { variable: string; description: string }[];
    /** Anything a user must know (mappings, platform quirks), one sentence each. */
    notes?: readonly string[];
  };
}
