/**
 * The sandbox platform itself: accounts, their books in PostgreSQL, the clock,
 * reads and writes. Transport-agnostic: the native REST API (api.ts) calls it,
 * in process or behind the HTTP server (server.ts).
 */
import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import { dueTicks, runTick } from './clock.ts';
import { companyOf } from './generator/reference.ts';
import type { NativeRecord } from './native.ts';
import { NativeError } from './native-error.ts';
import { resolveOptions, type SandboxOptions } from './options.ts';
import type { ResolvedAccount } from './scenarios.ts';
import { materialize, type MaterializeResult } from './store/materialize.ts';
import { getRecord, listPage, type ListQuery, type ListResult } from './store/read.ts';
import { ensureAccount, loadAccount, loadAccountById, resetAccount, withAccountLock, type AccountState } from './store/state.ts';
import { Unit } from './store/unit.ts';
import { WRITERS, type Body } from './writes/index.ts';

export interface WriteRequest {
  type: UnifiedObjectType;
  op: 'create' | 'update' | 'delete';
  id: string | null;
  body: Body;
  idempotencyKey: string | null;
}

export interface WriteResult { status: number; body: Record<string, unknown> }

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
    const fingerprint = createHash('sha256').update(JSON.stringify([request.op, path, request.body])).digest('hex');
    return withAccountLock(this.pool, state.id, async (client, fresh) => {
      if (request.idempotencyKey !== null) {
        const seen = await client.query<{ request_sha256: string; status: number; response: Record<string, unknown> }>(
          'SELECT request_sha256, status, response FROM sandbox_platform.writes WHERE account_id = $1 AND idempotency_key = $2',
          [state.id, request.idempotencyKey],
        );
        const previous = seen.rows[0];
        if (previous !== undefined) {
          if (previous.request_sha256 !== fingerprint) throw new NativeError(409, 'IdempotencyKeyReused', 'this Idempotency-Key was used for a different request', 'Idempotency-Key');
          return { status: previous.status, body: previous.response };
        }
      }
      const unit = new Unit(client, fresh, this.options.now());
      let result: WriteResult;
      let recordId: string | null = request.id;
      if (request.op === 'delete') {
        await writer.delete(unit, request.id ?? '');
        result = { status: 200, body: { Deleted: true, Id: request.id } };
      } else {
        const record = request.op === 'create' ? await writer.create(unit, request.body) : await writer.update(unit, request.id ?? '', request.body);
        recordId = record.Id;
        result = { status: request.op === 'create' ? 201 : 200, body: { Item: record } };
      }
      await unit.flush(null);
      if (request.idempotencyKey !== null) {
        await client.query(
          `INSERT INTO sandbox_platform.writes (account_id, idempotency_key, method, path, request_sha256, status, response, object_type, platform_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [state.id, request.idempotencyKey, request.op, path, fingerprint, result.status, JSON.stringify(result.body), request.type, recordId],
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
