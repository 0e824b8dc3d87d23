/** The connector's view of the native API: typed calls over a transport, with the connection's credentials. */
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';
import type { AuthContext, Credentials } from '../../../src/platforms/connector.ts';
import { PlatformError } from '../../../src/platforms/errors.ts';
import { collectionOf, type AttachmentParentType } from './collections.ts';
import type { NativeRecord } from './native.ts';
import type { SandboxCall, SandboxTransport } from './transport.ts';

export interface ListBody {
  Items: NativeRecord[];
  Deleted: { Id: string; DeletedAt: string }[];
  NextPageToken: string | null;
  NextSince: string | null;
}

/** Body of POST /v1/Attachments. */
export interface NativeUpload {
  ParentType: AttachmentParentType;
  ParentId: string;
  FileName: string;
  ContentType: string;
  Content: string;
}

/** One line of POST /v1/BankFeedAccounts/<id>/Transactions. */
export interface NativeFeedLine {
  InstitutionTxnId: string;
  Date: string;
  Amount: unknown;
  Description: string;
  Payee?: string;
  Reference?: string;
  RunningBalance?: unknown;
}

export interface FeedBatchBody {
  Id: string;
  Accepted: number;
  Duplicates: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRecord(value: unknown): value is NativeRecord {
  return isObject(value) && typeof value.Id === 'string';
}

function malformed(what: string): PlatformError {
  return new PlatformError({ kind: 'server', message: `the sandbox answered ${what} in an unexpected shape`, requestSent: true });
}

export class SandboxClient {
  readonly #transport: SandboxTransport;
  readonly #ctx: AuthContext;
  readonly #authorization: string;

  constructor(transport: SandboxTransport, ctx: AuthContext, credentials: Credentials) {
    this.#transport = transport;
    this.#ctx = ctx;
    const user = credentials.basic_username ?? '';
    const password = credentials.basic_password ?? '';
    this.#authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }

  async #send(call: Omit<SandboxCall, 'headers'>, headers: Record<string, string> = {}): Promise<unknown> {
    const response = await this.#transport.send(
      { ...call, headers: { authorization: this.#authorization, accept: 'application/json', ...headers } },
      this.#ctx,
    );
    return response.body;
  }

  async me(): Promise<{ AccountId: string; CompanyName: string | null }> {
    const body = await this.#send({ method: 'GET', path: '/v1/Me', idempotent: true, operation: 'identify' });
    if (!isObject(body) || typeof body.AccountId !== 'string') throw malformed('Me');
    return { AccountId: body.AccountId, CompanyName: typeof body.CompanyName === 'string' ? body.CompanyName : null };
  }

  async list(type: UnifiedObjectType, query: Record<string, string | undefined>): Promise<ListBody> {
    const { collection } = collectionOf(type);
    const body = await this.#send({
      method: 'GET',
      path: `/v1/${collection}`,
      query,
      idempotent: true,
      objectType: type,
      operation: `list ${collection}`,
    });
    if (!isObject(body) || !Array.isArray(body.Items) || !body.Items.every(isRecord) || !Array.isArray(body.Deleted)) throw malformed(collection);
    const deleted = body.Deleted.filter((d): d is { Id: string; DeletedAt: string } => isObject(d) && typeof d.Id === 'string');
    return {
      Items: body.Items,
      Deleted: deleted,
      NextPageToken: typeof body.NextPageToken === 'string' ? body.NextPageToken : null,
      NextSince: typeof body.NextSince === 'string' ? body.NextSince : null,
    };
  }

  /** A create or update; the record as the platform stored it. */
  async write(
    type: UnifiedObjectType,
    method: 'POST' | 'PATCH',
    id: string | null,
    body: Record<string, unknown>,
    key: string,
  ): Promise<NativeRecord> {
    const { collection } = collectionOf(type);
    const path = id === null ? `/v1/${collection}` : `/v1/${collection}/${encodeURIComponent(id)}`;
    // Keyed writes are safe to retry: the platform answers a repeat with the first result.
    const answer = await this.#send(
      { method, path, body, idempotent: true, objectType: type, operation: `${method === 'POST' ? 'create' : 'update'} ${collection}` },
      { 'idempotency-key': key },
    );
    if (!isObject(answer) || !isRecord(answer.Item)) throw malformed(collection);
    return answer.Item;
  }

  async delete(type: UnifiedObjectType, id: string, key: string): Promise<void> {
    const { collection } = collectionOf(type);
    await this.#send(
      {
        method: 'DELETE',
        path: `/v1/${collection}/${encodeURIComponent(id)}`,
        idempotent: true,
        objectType: type,
        operation: `delete ${collection}`,
      },
      { 'idempotency-key': key },
    );
  }

  /** A write of a product's variant: the product as it is afterwards and the variant's id. */
  async variant(
    method: 'POST' | 'PATCH' | 'DELETE',
    productId: string,
    variantId: string | null,
    body: Record<string, unknown>,
    key: string,
  ): Promise<{ Item: NativeRecord; VariantId: string }> {
    const base = `/v1/Products/${encodeURIComponent(productId)}/Variants`;
    const path = variantId === null ? base : `${base}/${encodeURIComponent(variantId)}`;
    const verb = method === 'POST' ? 'create' : method === 'PATCH' ? 'update' : 'delete';
    const answer = await this.#send(
      { method, path, ...(method === 'DELETE' ? {} : { body }), idempotent: true, objectType: 'product', operation: `${verb} Products variant` },
      { 'idempotency-key': key },
    );
    if (!isObject(answer) || !isRecord(answer.Item) || typeof answer.VariantId !== 'string') throw malformed('Products Variants');
    return { Item: answer.Item, VariantId: answer.VariantId };
  }

  /** Uploads a file as an attachment; the attachment as stored. */
  async upload(body: NativeUpload, key: string): Promise<NativeRecord> {
    const answer = await this.#send(
      { method: 'POST', path: '/v1/Attachments', body, idempotent: true, objectType: 'attachment', operation: 'upload Attachments' },
      { 'idempotency-key': key },
    );
    if (!isObject(answer) || !isRecord(answer.Item)) throw malformed('Attachments');
    return answer.Item;
  }

  /** Sends statement lines to a feed; the batch and the feed as it is afterwards. */
  async feedTransactions(feedId: string, lines: NativeFeedLine[], key: string): Promise<{ Batch: FeedBatchBody; Item: NativeRecord }> {
    const path = `/v1/BankFeedAccounts/${encodeURIComponent(feedId)}/Transactions`;
    const answer = await this.#send(
      {
        method: 'POST',
        path,
        body: { Transactions: lines },
        idempotent: true,
        objectType: 'bank_feed_account',
        operation: 'send BankFeedAccounts transactions',
      },
      { 'idempotency-key': key },
    );
    if (!isObject(answer) || !isRecord(answer.Item) || !isObject(answer.Batch)) throw malformed('BankFeedAccounts Transactions');
    const batch = answer.Batch;
    if (typeof batch.Id !== 'string' || typeof batch.Accepted !== 'number' || typeof batch.Duplicates !== 'number')
      throw malformed('BankFeedAccounts Transactions');
    return { Batch: { Id: batch.Id, Accepted: batch.Accepted, Duplicates: batch.Duplicates }, Item: answer.Item };
  }

  /** The address of the page where the business links a feed to a ledger account. */
  async mappingLink(feedId: string): Promise<{ Url: string; ExpiresAt: string | null }> {
    const path = `/v1/BankFeedAccounts/${encodeURIComponent(feedId)}/MappingLink`;
    // Nothing changes on the platform until the business uses the link, so a retry is harmless.
    const answer = await this.#send({
      method: 'POST',
      path,
      body: {},
      idempotent: true,
      objectType: 'bank_feed_account',
      operation: 'create BankFeedAccounts mapping link',
    });
    if (!isObject(answer) || typeof answer.Url !== 'string') throw malformed('BankFeedAccounts MappingLink');
    return { Url: answer.Url, ExpiresAt: typeof answer.ExpiresAt === 'string' ? answer.ExpiresAt : null };
  }

  /** The record an earlier write with this key created, if it got that far. */
  async writtenWith(key: string): Promise<NativeRecord | null> {
    let body: unknown;
    try {
      body = await this.#send({ method: 'GET', path: `/v1/Requests/${encodeURIComponent(key)}`, idempotent: true, operation: 'find request' });
    } catch (error) {
      if (error instanceof PlatformError && error.kind === 'not_found') return null;
      throw error;
    }
    if (!isObject(body) || !isObject(body.Request)) throw malformed('Requests');
    const response = body.Request.Response;
    return isObject(response) && isRecord(response.Item) ? response.Item : null;
  }
}
