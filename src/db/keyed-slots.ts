/**
 * At most `concurrency` holders per key; the others wait in the key's queue, first come first served, for up to
 * `waitMs`, then are refused with the error `refusal()` makes. A freed slot is handed straight to the first in
 * line, so no newcomer can jump the queue. In memory: it guards this process's own resources only.
 */
interface Waiter {
  grant(): void;
  timer: NodeJS.Timeout | null;
}
interface Slots {
  active: number;
  waiting: Waiter[];
}

export class KeyedSlots {
  readonly #concurrency: number;
  readonly #waitMs: number;
  readonly #refusal: () => Error;
  readonly #keys = new Map<string, Slots>();

  constructor(options: { concurrency: number; waitMs: number; refusal: () => Error }) {
    this.#concurrency = options.concurrency;
    this.#waitMs = options.waitMs;
    this.#refusal = options.refusal;
  }

  /** Resolves once a slot of `key` is held; rejects with the refusal after waitMs in line. */
  take(key: string): Promise<void> {
    let slots = this.#keys.get(key);
    if (slots === undefined) {
      slots = { active: 0, waiting: [] };
      this.#keys.set(key, slots);
    }
    if (slots.active < this.#concurrency) {
      slots.active += 1;
      return Promise.resolve();
    }
    const queue = slots.waiting;
    const { promise, resolve, reject } = Promise.withResolvers<undefined>();
    const waiter: Waiter = {
      grant: () => {
        if (waiter.timer !== null) clearTimeout(waiter.timer);
        resolve(undefined);
      },
      timer: setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(this.#refusal());
      }, this.#waitMs),
    };
    queue.push(waiter);
    return promise;
  }

  /** Gives back a slot that `take` granted. */
  release(key: string): void {
    const slots = this.#keys.get(key);
    if (slots === undefined) return;
    const next = slots.waiting.shift();
    // Handed on directly: the count stays, so no newcomer can jump the queue.
    if (next !== undefined) {
      next.grant();
      return;
    }
    slots.active -= 1;
    if (slots.active === 0) this.#keys.delete(key);
  }

  /** Holders and waiters of `key` (for tests and metrics). */
  usage(key: string): { active: number; waiting: number } {
    const slots = this.#keys.get(key);
    return { active: slots?.active ?? 0, waiting: slots?.waiting.length ?? 0 };
  }
}
