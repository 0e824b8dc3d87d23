/**
 * Refusals answered after a delay (a tarpit): a request from a sender that has already been refused too often waits,
 * unread, before its answer, so a flooding client's connections each send one request per delay instead of as many
 * as the network carries (src/api/platform-webhooks/receive.ts). Per process: what is held is this process's sockets.
 * Closing the app answers everything still held at once, so a shutdown never waits for a delay.
 */
export class HeldRefusals {
  readonly #held = new Map<NodeJS.Timeout, () => void>();

  /** Calls `answer` after `delayMs` (at once when 0), or when the app closes, whichever comes first. */
  hold(delayMs: number, answer: () => void): void {
    if (delayMs <= 0) {
      answer();
      return;
    }
    const timer = setTimeout(() => {
      this.#held.delete(timer);
      answer();
    }, delayMs);
    // A held refusal never keeps the process alive.
    timer.unref();
    this.#held.set(timer, answer);
  }

  /** Requests waiting for their refusal now. */
  get size(): number {
    return this.#held.size;
  }

  /** Answers every held request now. */
  releaseAll(): void {
    for (const [timer, answer] of this.#held) {
      clearTimeout(timer);
      answer();
    }
    this.#held.clear();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    heldRefusals: HeldRefusals;
  }
}
