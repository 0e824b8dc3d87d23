/**
 * The sandbox platform itself: accounts, their books in PostgreSQL, the clock,
 * reads and writes. Transport-agnostic: the native REST API (api.ts) calls it,
 * in process or behind the HTTP server (server.ts).
 */
import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';
import { dueTicks, runTick } from './clock.ts';
import { companyOf } from './generator/reference.ts';
import { linkPageUrl, MAPPING_LINK_TTL_MS, readLinkClaims, signLinkToken, verifyLinkToken } from './feed-link.ts';
import type { NativeAccount, NativeFeedAccount, NativeRecord } from './native.ts';
import { NativeError } from './native-error.ts';
import { resolveOptions, type SandboxOptions } from './options.ts';
import type { ResolvedAccount } from './scenarios.ts';
import { materialize, type MaterializeResult } from './store/materialize.ts';
import { allRecords, getRecord, listPage, type ListQuery, type ListResult } from './store/read.ts';
import { ensureAccount, findAccountById, loadAccount, loadAccountById, resetAccount, withAccountLock, type AccountState } from './store/state.ts';
import { Unit } from './store/unit.ts';
import { uploadAttachment } from './writes/attachments.ts';
import { receiveFeedLines } from './writes/feed-lines.ts';
import { FEEDABLE_ACCOUNT_TYPES, linkFeed } from './writes/feeds.ts';
import { billWriter } from './writes/documents.ts';
import { variantWriter } from './writes/catalogue.ts';
import { WRITERS, type Body } from './writes/index.ts';
import { notFound } from './writes/validate.ts';

export interface WriteRequest {
  type: UnifiedObjectType;
  op: 'create' | 'update' | 'delete';
  id: string | null;
  body: Body;
  idempotencyKey: string | null;
}

export interface VariantWriteRequest {
  op: 'create' | 'update' | 'delete';
  productId: string;
  /** Null for a create. */
  variantId: string | null;
  body: Body;
  idempotencyKey: string | null;
}

export interface WriteResult {
  status: number;
  body: Record<string, unknown>;
}

export class SandboxPlatform {
  readonly pool: Pool;
  readonly options: SandboxOptions;

  constructor(pool: Pool, options: Partial<SandboxOptions> = {}) {
    this.pool = pool;
    this.options = resolveOptions(options);
  }

  account(resolved: ResolvedAccount): Promise<AccountState> {
    return ensureAccount(this.pool, resolved, this.options.defaultSize);
  }

  /** Who the account is, without generating its books. */
  identity(state: AccountState): { storeUniqueId: string; name: string; country: string; currency: string } {
    const company = companyOf(state.seed);
    return { storeUniqueId: `sandbox:${state.accountKey}`, name: company.tradingName, country: company.country, currency: company.currency };
  }

  /** The account's books, generated on first use; the state as it is afterwards. */
  async ready(state: AccountState): Promise<AccountState> {
    if (state.materializedAt !== null) return state;
    await materialize(this.pool, state, this.options);
    return loadAccountById(this.pool, state.id);
  }

  async materialize(accountKey: string): Promise<MaterializeResult | null> {
    const state = await loadAccount(this.pool, accountKey);
    if (state === null) throw new Error(`no sandbox account ${accountKey}`);
    return materialize(this.pool, state, this.options);
  }

  /** Applies the ticks the clock says are due (reads call this). */
  async catchUp(state: AccountState): Promise<AccountState> {
    const now = this.options.now();
    if (dueTicks(state.lastTickAt, now, this.options.tickIntervalMs, this.options.maxCatchUpTicks) === 0) return state;
    return withAccountLock(this.pool, state.id, async (client, fresh) => {
      let current = fresh;
      // Another process may have ticked while this one waited for the lock.
      const due = dueTicks(current.lastTickAt, now, this.options.tickIntervalMs, this.options.maxCatchUpTicks);
      for (let n = 0; n < due; n++) current = await this.#tick(client, current, now);
      return current;
    });
  }

  /** Moves an account's time forward by `ticks` ticks, whatever the clock says (tests, demos). */
  async advance(accountKey: string, ticks = 1): Promise<AccountState> {
    const found = await loadAccount(this.pool, accountKey);
    if (found === null) throw new Error(`no sandbox account ${accountKey}`);
    const state = await this.ready(found);
    return withAccountLock(this.pool, state.id, async (client, fresh) => {
      let current = fresh;
      for (let n = 0; n < ticks; n++) current = await this.#tick(client, current, this.options.now());
      return current;
    });
  }

  async #tick(client: PoolClient, state: AccountState, now: number): Promise<AccountState> {
    const unit = new Unit(client, state, now);
    await runTick(unit, state.tick + 1);
    await unit.flush(state.tick + 1);
    return loadAccountById(client, state.id);
  }

  list(state: AccountState, type: UnifiedObjectType, query: ListQuery): Promise<ListResult> {
    return listPage(this.pool, state, type, query);
  }

  get(state: AccountState, type: UnifiedObjectType, id: string): Promise<NativeRecord | null> {
    return getRecord(this.pool, state, type, id);
  }

  /** A create, update or delete, applied once per idempotency key. */
  async write(state: AccountState, request: WriteRequest, path: string): Promise<WriteResult> {
    const writer = WRITERS[request.type];
    if (writer === undefined) throw new NativeError(405, 'MethodNotAllowed', `${request.type} records cannot be written`);
    const keyed = { key: request.idempotencyKey, op: request.op, path, body: request.body, type: request.type };
    return this.#once(state, keyed, async (unit) => {
      if (request.op === 'delete') {
        await writer.delete(unit, request.id ?? '');
        return { result: { status: 200, body: { Deleted: true, Id: request.id } }, recordId: request.id };
      }
      const record = request.op === 'create' ? await writer.create(unit, request.body) : await writer.update(unit, request.id ?? '', request.body);
      return { result: { status: request.op === 'create' ? 201 : 200, body: { Item: record } }, recordId: record.Id };
    });
  }

  /** A product's variant (POST, PATCH, DELETE /v1/Products/<id>/Variants[/<variantId>]), once per idempotency key: the product after it. */
  writeVariant(state: AccountState, request: VariantWriteRequest, path: string): Promise<WriteResult> {
    const keyed = { key: request.idempotencyKey, op: `${request.op} variant`, path, body: request.body, type: 'product' as const };
    return this.#once(state, keyed, async (unit) => {
      const written =
        request.op === 'create'
          ? await variantWriter.create(unit, request.productId, request.body)
          : request.op === 'update'
            ? await variantWriter.update(unit, request.productId, request.variantId ?? '', request.body)
            : await variantWriter.delete(unit, request.productId, request.variantId ?? '');
      const status = request.op === 'create' ? 201 : 200;
      return { result: { status, body: { Item: written.product, VariantId: written.variantId } }, recordId: written.product.Id };
    });
  }

  /**
   * The business deletes a bill on the platform, as a person would in its own UI (user_deletes): the newest one without
   * payments or credits, through the same rules as a DELETE (none when no bill is left). Answers the account after it,
   * so a read that follows lists the deletion.
   */
  deleteBillAsTheBusiness(state: AccountState): Promise<AccountState> {
    return withAccountLock(this.pool, state.id, async (client, fresh) => {
      const unit = new Unit(client, fresh, this.options.now());
      const bill = (await unit.all('bill')).findLast((b) => b.LinkedTxns.length === 0);
      if (bill === undefined) return fresh;
      await billWriter.delete(unit, bill.Id);
      await unit.flush(null);
      return loadAccountById(client, state.id);
    });
  }

  /** A file attached to a journal entry, bill, invoice or expense (POST /v1/Attachments), once per idempotency key. */
  upload(state: AccountState, body: Body, idempotencyKey: string | null, path: string): Promise<WriteResult> {
    return this.#once(state, { key: idempotencyKey, op: 'create', path, body, type: 'attachment' }, async (unit) => {
      const attachment = await uploadAttachment(unit, body);
      return { result: { status: 201, body: { Item: attachment } }, recordId: attachment.Id };
    });
  }

  /** Statement lines for a bank feed (POST /v1/BankFeedAccounts/<id>/Transactions), once per idempotency key. */
  feedTransactions(state: AccountState, feedId: string, body: Body, idempotencyKey: string | null, path: string): Promise<WriteResult> {
    return this.#once(state, { key: idempotencyKey, op: 'transactions', path, body, type: 'bank_feed_account' }, async (unit) => {
      const batch = await receiveFeedLines(unit, feedId, body);
      return { result: { status: 201, body: { ...batch } }, recordId: feedId };
    });
  }

  /** Address of the page where the business links a feed to a ledger account (POST /v1/BankFeedAccounts/<id>/MappingLink). */
  async mappingLink(state: AccountState, feedId: string): Promise<{ Url: string; ExpiresAt: string }> {
    if ((await this.get(state, 'bank_feed_account', feedId)) === null) throw notFound('bank_feed_account', feedId);
    const expiresAt = this.options.now() + MAPPING_LINK_TTL_MS;
    const token = signLinkToken({ accountNumber: state.id, feedId, expiresAt }, state);
    // Whole seconds: the token carries its expiry in seconds.
    return { Url: linkPageUrl(this.options.publicUrl, token), ExpiresAt: new Date(Math.floor(expiresAt / 1000) * 1000).toISOString() };
  }

  /** The account and feed a mapping link is for, once its signature and expiry check out. */
  async openLink(token: string): Promise<{ ok: true; state: AccountState; feedId: string } | { ok: false; reason: 'invalid' | 'expired' }> {
    const claims = readLinkClaims(token);
    const state = claims === null ? null : await findAccountById(this.pool, claims.accountNumber);
    if (state?.materializedAt == null) return { ok: false, reason: 'invalid' };
    const verdict = verifyLinkToken(token, state, this.options.now());
    return verdict.ok ? { ok: true, state, feedId: verdict.claims.feedId } : verdict;
  }

  /** What the linking page offers: the feed, and the Bank and CreditCard accounts no other feed brings lines to. */
  async linkChoices(state: AccountState, feedId: string): Promise<{ feed: NativeFeedAccount; accounts: NativeAccount[] } | null> {
    const feed = await this.get(state, 'bank_feed_account', feedId);
    if (feed === null) return null;
    const fed = new Set(
      (await allRecords(this.pool, state, 'bank_feed_account')).flatMap((f) =>
        f.Id !== feedId && typeof f.AccountId === 'string' ? [f.AccountId] : [],
      ),
    );
    // Records of a collection hold that collection's native shape.
    const accounts = (await allRecords(this.pool, state, 'account')) as NativeAccount[];
    const types: readonly string[] = FEEDABLE_ACCOUNT_TYPES;
    return {
      feed: feed as NativeFeedAccount,
      accounts: accounts.filter((a) => types.includes(a.Type) && a.Status === 'Active' && !fed.has(a.Id)),
    };
  }

  /** Links a feed to a ledger account (the linking page's form): ready and active, in the change log like any change. */
  linkFeed(state: AccountState, feedId: string, accountId: string): Promise<NativeFeedAccount> {
    return withAccountLock(this.pool, state.id, async (client, fresh) => {
      const unit = new Unit(client, fresh, this.options.now());
      const feed = await linkFeed(unit, feedId, accountId);
      await unit.flush(null);
      return feed;
    });
  }

  /**
   * Runs `work` in one unit under the account lock, once per idempotency key: a repeat with the
   * same request answers the stored result; another request under the key is refused.
   */
  async #once(
    state: AccountState,
    request: { key: string | null; op: string; path: string; body: Body; type: UnifiedObjectType },
    work: (unit: Unit) => Promise<{ result: WriteResult; recordId: string | null }>,
  ): Promise<WriteResult> {
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([request.op, request.path, request.body]))
      .digest('hex');
    return withAccountLock(this.pool, state.id, async (client, fresh) => {
      if (request.key !== null) {
        const seen = await client.query<{ request_sha256: string; status: number; response: Record<string, unknown> }>(
          'SELECT request_sha256, status, response FROM sandbox_platform.writes WHERE account_id = $1 AND idempotency_key = $2',
          [state.id, request.key],
        );
        const previous = seen.rows[0];
        if (previous !== undefined) {
          if (previous.request_sha256 !== fingerprint)
            throw new NativeError(409, 'IdempotencyKeyReused', 'this Idempotency-Key was used for a different request', 'Idempotency-Key');
          return { status: previous.status, body: previous.response };
        }
      }
      const unit = new Unit(client, fresh, this.options.now());
      const { result, recordId } = await work(unit);
      await unit.flush(null);
      if (request.key !== null) {
        await client.query(
          `INSERT INTO sandbox_platform.writes (account_id, idempotency_key, method, path, request_sha256, status, response, object_type, platform_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [state.id, request.key, request.op, request.path, fingerprint, result.status, JSON.stringify(result.body), request.type, recordId],
        );
      }
      return result;
    });
  }

  /** The stored answer of an earlier write, by its idempotency key (how a client learns what an interrupted create did). */
  async writeByKey(state: AccountState, key: string): Promise<{ status: number; body: Record<string, unknown>; type: string | null } | null> {
    const result = await this.pool.query<{ status: number; response: Record<string, unknown>; object_type: string | null }>(
      'SELECT status, response, object_type FROM sandbox_platform.writes WHERE account_id = $1 AND idempotency_key = $2',
      [state.id, key],
    );
    const row = result.rows[0];
    return row === undefined ? null : { status: row.status, body: row.response, type: row.object_type };
  }

  reset(accountKey: string): Promise<void> {
    return resetAccount(this.pool, accountKey);
  }
}
