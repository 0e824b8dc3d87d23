/**
 * Per process, at most `concurrency` requests of one organisation hold API database connections at once. A request
 * takes its organisation's slot when it checks out its first connection and gives it back when it holds none (or
 * its response is sent); its further connections meanwhile need no second slot, so a request never waits for
 * itself. The others wait in their organisation's queue, first come first served, for up to `waitMs`, then get
 * 429: one organisation's flood waits in its own queue and never takes another organisation's connections.
 *
 * Reads that scan every record of a connection (a `~` filter compares the text of each one) also take one of the
 * organisation's `costlyConcurrency` costly-read slots (ORG_COSTLY_READ_CONCURRENCY, 1): on a small host those reads
 * are CPU, not connections, and two of one organisation at once doubled another organisation's p99 where one kept it
 * at 1.3x (docs/performance.md, "Tenant fairness"). Cheap requests of the same organisation keep their own slots, so
 * a slow scan never holds back a fetch.
 *
 * Lists with `expand=platform_data` hold one of the organisation's `costlyConcurrency` large-answer slots from before
 * their read until their answer is sent (issue 32): parsing and serialising up to LIST_PLATFORM_DATA_MAX_BYTES of
 * platform data is CPU on this process, and sixteen such pages of one organisation at once moved another's p99 25×.
 * One at a time was not enough: pages asked back to back still kept this process busy sending them (another's p99
 * 3-5×, docs/performance.md). So a slot comes back only when the answer's bytes fit ORG_LARGE_ANSWER_BYTES_PER_SECOND
 * (8 MiB/s per slot): an organisation reading pages of 900 KB one after another gets one every 110 ms, and the time
 * between is left to the others. Measured with the server on one core (bench/tenant-isolation.ts): another
 * organisation's p99 1.93× at 16 MiB/s, 1.08× at 4 MiB/s. Per process, as the CPU it shares is: two API processes
 * serve twice as much.
 */
import { ServiceError } from '../errors/catalogue.ts';
import { countThrottled } from '../metrics/registry.ts';
import { KeyedSlots } from './keyed-slots.ts';
import type { RequestScope } from './request-scope.ts';

export class OrganizationGate {
  readonly #concurrency: number;
  readonly #waitMs: number;
  readonly #slots: KeyedSlots;
  readonly #costlySlots: KeyedSlots;
  readonly #costlyConcurrency: number;
  readonly #largeSlots: KeyedSlots;
  readonly #largeAnswerBytesPerSecond: number;

  constructor(options: { concurrency: number; waitMs: number; costlyConcurrency: number; largeAnswerBytesPerSecond?: number }) {
    this.#largeAnswerBytesPerSecond = options.largeAnswerBytesPerSecond ?? Number.POSITIVE_INFINITY;
    this.#concurrency = options.concurrency;
    this.#waitMs = options.waitMs;
    this.#costlyConcurrency = options.costlyConcurrency;
    this.#slots = new KeyedSlots({ concurrency: options.concurrency, waitMs: options.waitMs, refusal: () => this.#busy() });
    this.#costlySlots = new KeyedSlots({ concurrency: options.costlyConcurrency, waitMs: options.waitMs, refusal: () => this.#busyCostly() });
    this.#largeSlots = new KeyedSlots({ concurrency: options.costlyConcurrency, waitMs: options.waitMs, refusal: () => this.#busyLarge() });
  }

  /**
   * Takes one of the organisation's large-answer slots (a list with platform data) and returns what gives it back,
   * once: call that with the answer's size when it has been sent, so its serialisation is covered too. The slot comes
   * back when the time since it was taken covers those bytes at the organisation's rate (at once if it already does).
   * Like `costly`, take it while the request holds no connection.
   */
  async holdLargeAnswer(organizationId: string): Promise<(bytes?: number) => void> {
    await this.#largeSlots.take(organizationId);
    const takenAt = Date.now();
    let held = true;
    return (bytes = 0) => {
      if (!held) return;
      held = false;
      const paceMs = (bytes / this.#largeAnswerBytesPerSecond) * 1000 - (Date.now() - takenAt);
      if (!(paceMs > 0)) {
        this.#largeSlots.release(organizationId);
        return;
      }
      // Never keeps the process alive: a closing process gives up its slots with everything else.
      setTimeout(() => {
        this.#largeSlots.release(organizationId);
      }, paceMs).unref();
    };
  }

  /** Large answers being read or sent, or waiting, per organisation. */
  largeAnswerUsage(organizationId: string): { active: number; waiting: number } {
    return this.#largeSlots.usage(organizationId);
  }

  /** Before a connection is checked out for `scope`: its slot is held when this resolves. */
  async enter(scope: RequestScope): Promise<void> {
    scope.connections += 1;
    scope.slot ??= this.#slots.take(scope.organizationId);
    try {
      await scope.slot;
    } catch (error) {
      scope.connections -= 1;
      if (scope.connections === 0) scope.slot = null;
      throw error;
    }
  }

  /** After that connection went back: the slot is given back when the request holds no other. */
  leave(scope: RequestScope): void {
    scope.connections -= 1;
    if (scope.connections === 0 && !scope.ended) this.#giveBack(scope);
  }

  /** The request is over: its slot goes back even if a connection it opened is still out (a leak must not keep it). */
  end(scope: RequestScope): void {
    if (scope.ended) return;
    scope.ended = true;
    if (scope.connections > 0) this.#giveBack(scope);
  }

  /**
   * Runs `work`, a read that scans every record of a connection, once one of the organisation's costly-read slots
   * is held. Call it while the request holds no connection: the connection slot is taken inside, after this one, so
   * the two are always taken in the same order and a request waiting here holds nothing another one needs.
   */
  async costly<T>(organizationId: string, work: () => Promise<T>): Promise<T> {
    await this.#costlySlots.take(organizationId);
    try {
      return await work();
    } finally {
      this.#costlySlots.release(organizationId);
    }
  }

  /** Requests holding or waiting for a slot, per organisation (for tests and metrics). */
  usage(organizationId: string): { active: number; waiting: number } {
    return this.#slots.usage(organizationId);
  }

  /** Costly reads running or waiting, per organisation. */
  costlyUsage(organizationId: string): { active: number; waiting: number } {
    return this.#costlySlots.usage(organizationId);
  }

  #giveBack(scope: RequestScope): void {
    const slot = scope.slot;
    scope.slot = null;
    // Only a slot that was granted is given back; a rejected one was never counted.
    void slot?.then(
      () => {
        this.#slots.release(scope.organizationId);
      },
      () => undefined,
    );
  }

  #busy(): ServiceError {
    countThrottled('organization_concurrency');
    const retryAfter = Math.max(1, Math.ceil(this.#waitMs / 1000));
    return new ServiceError(
      'RATE_LIMIT_EXCEEDED',
      `This organisation already has ${this.#concurrency} requests using the database on this server and this one waited ${this.#waitMs} ms for a turn; send fewer requests at once (or cheaper ones: a narrower filter, a lower limit) and retry after ${retryAfter} s.`,
      { source: 'service', reason: 'organization_concurrency', concurrency: this.#concurrency },
      { 'Retry-After': String(retryAfter) },
    );
  }

  #busyLarge(): ServiceError {
    countThrottled('organization_large_answers');
    const retryAfter = Math.max(1, Math.ceil(this.#waitMs / 1000));
    return new ServiceError(
      'RATE_LIMIT_EXCEEDED',
      `This organisation already has ${this.#costlyConcurrency} list${this.#costlyConcurrency === 1 ? '' : 's'} with expand=platform_data being read or sent on this server and this one waited ${this.#waitMs} ms for a turn; platform data is large, so read such pages one at a time (or without expand) and retry after ${retryAfter} s.`,
      { source: 'service', field: 'expand', location: 'query', reason: 'organization_large_answers', concurrency: this.#costlyConcurrency },
      { 'Retry-After': String(retryAfter) },
    );
  }

  #busyCostly(): ServiceError {
    countThrottled('organization_costly_reads');
    const retryAfter = Math.max(1, Math.ceil(this.#waitMs / 1000));
    return new ServiceError(
      'RATE_LIMIT_EXCEEDED',
      `This organisation already has ${this.#costlyConcurrency} list${this.#costlyConcurrency === 1 ? '' : 's'} with a "~" filter running on this server and this one waited ${this.#waitMs} ms for a turn; each "~" comparison reads the text of every record, so send them one at a time (or filter with = on exact values) and retry after ${retryAfter} s.`,
      { source: 'service', field: 'filter', location: 'query', reason: 'organization_costly_reads', concurrency: this.#costlyConcurrency },
      { 'Retry-After': String(retryAfter) },
    );
  }
}
