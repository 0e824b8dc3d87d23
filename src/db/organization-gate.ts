/**
 * Per process, at most `concurrency` requests of one organisation hold API database connections at once. A request
 * takes its organisation's slot when it checks out its first connection and gives it back when it holds none (or
 * its response is sent); its further connections meanwhile need no second slot, so a request never waits for
 * itself. The others wait in their organisation's queue, first come first served, for up to `waitMs`, then get
 * 429: one organisation's flood waits in its own queue and never takes another organisation's connections.
 */
import { ServiceError } from '../errors/catalogue.ts';
import type { RequestScope } from './request-scope.ts';

interface Waiter { grant(): void; timer: NodeJS.Timeout | null }
interface OrganizationSlots { active: number; waiting: Waiter[] }

export class OrganizationGate {
  readonly #concurrency: number;
  readonly #waitMs: number;
  readonly #organizations = new Map<string, OrganizationSlots>();

  constructor(options: { concurrency: number; waitMs: number }) {
    this.#concurrency = options.concurrency;
    this.#waitMs = options.waitMs;
  }

  /** Before a connection is checked out for `scope`: its slot is held when this resolves. */
  async enter(scope: RequestScope): Promise<void> {
    scope.connections += 1;
    scope.slot ??= this.#take(scope.organizationId);
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

  /** Requests holding or waiting for a slot, per organisation (for tests and metrics). */
  usage(organizationId: string): { active: number; waiting: number } {
    const slots = this.#organizations.get(organizationId);
    return { active: slots?.active ?? 0, waiting: slots?.waiting.length ?? 0 };
  }

  #giveBack(scope: RequestScope): void {
    const slot = scope.slot;
    scope.slot = null;
    // Only a slot that was granted is given back; a rejected one was never counted.
    void slot?.then(() => { this.#release(scope.organizationId); }, () => undefined);
  }

  #take(organizationId: string): Promise<void> {
    let slots = this.#organizations.get(organizationId);
    if (slots === undefined) {
      slots = { active: 0, waiting: [] };
      this.#organizations.set(organizationId, slots);
    }
    if (slots.active < this.#concurrency) {
      slots.active += 1;
      return Promise.resolve();
    }
    const queue = slots.waiting;
    const { promise, resolve, reject } = Promise.withResolvers<undefined>();
    const waiter: Waiter = {
      grant: () => { if (waiter.timer !== null) clearTimeout(waiter.timer); resolve(undefined); },
      timer: setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(this.#busy());
      }, this.#waitMs),
    };
    queue.push(waiter);
    return promise;
  }

  #release(organizationId: string): void {
    const slots = this.#organizations.get(organizationId);
    if (slots === undefined) return;
    const next = slots.waiting.shift();
    // Handed on directly: the count stays, so no newcomer can jump the queue.
    if (next !== undefined) {
      next.grant();
      return;
    }
    slots.active -= 1;
    if (slots.active === 0) this.#organizations.delete(organizationId);
  }

  #busy(): ServiceError {
    const retryAfter = Math.max(1, Math.ceil(this.#waitMs / 1000));
    return new ServiceError('RATE_LIMIT_EXCEEDED',
      `This organisation already has ${this.#concurrency} requests using the database on this server and this one waited ${this.#waitMs} ms for a turn; send fewer requests at once (or cheaper ones: a narrower filter, a lower limit) and retry after ${retryAfter} s.`,
      { source: 'service', reason: 'organization_concurrency', concurrency: this.#concurrency }, { 'Retry-After': String(retryAfter) });
  }
}
