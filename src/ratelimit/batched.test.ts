import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WindowState } from '../sql/rate-limit-hit.ts';
import { BatchedCounter, MAX_PENDING } from './batched.ts';

/** A shared counter as the database keeps it: one window of 10 s, with every add recorded. */
function sharedCounter(): { add: (bucket: string, n: number) => Promise<WindowState>; adds: number[]; total: () => number } {
  let hits = 0;
  const adds: number[] = [];
  return {
    adds,
    total: () => hits,
    add: (_bucket, n) => {
      adds.push(n);
      hits += n;
      return Promise.resolve({ hits, resetMs: 10_000 });
    },
  };
}

describe('BatchedCounter', () => {
  it('counts a small limit exactly: every request is one add, and the answer is the shared count', async () => {
    const shared = sharedCounter();
    const counter = new BatchedCounter(shared.add, 5);
    const answers: number[] = [];
    for (let n = 0; n < 7; n++) answers.push((await counter.hit('org:a')).hits);
    expect(answers).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(shared.adds).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('far from a large limit, counts up to MAX_PENDING requests locally and adds them in one write', async () => {
    const shared = sharedCounter();
    const counter = new BatchedCounter(shared.add, 10_000);
    const answers: number[] = [];
    for (let n = 0; n < 50; n++) {
      answers.push((await counter.hit('org:a')).hits);
      // Never more than MAX_PENDING admitted here and not yet in the shared count.
      expect(n + 1 - shared.total()).toBeLessThanOrEqual(MAX_PENDING);
    }
    expect(answers).toEqual(Array.from({ length: 50 }, (_, k) => k + 1));
    // The first request, then one write per MAX_PENDING + 1 requests.
    expect(shared.adds).toEqual([1, 11, 11, 11, 11]);
    await sleep(150);
    expect(shared.adds).toEqual([1, 11, 11, 11, 11, 5]);
    expect(shared.total()).toBe(50);
  });

  it('counts adds still in flight: requests arriving while the first ones are being added are not batched past them', async () => {
    let hits = 0;
    const release: (() => void)[] = [];
    const slowAdd = async (_bucket: string, n: number): Promise<WindowState> => {
      await new Promise<void>((resolve) => release.push(resolve));
      hits += n;
      return { hits, resetMs: 10_000 };
    };
    const counter = new BatchedCounter(slowAdd, 500);
    // 300 requests at once: the window is unknown, so every one is added exactly, together in one add.
    const first = Array.from({ length: 300 }, () => counter.hit('org:a'));
    await sleep(0);
    expect(release).toHaveLength(1);
    // Five more while that add is on its way: they form the next one, sent only once the first is answered.
    const second = Array.from({ length: 5 }, () => counter.hit('org:a'));
    await sleep(0);
    expect(release).toHaveLength(1);
    release.shift()?.();
    await sleep(0);
    expect(release).toHaveLength(1);
    release.shift()?.();
    const answers = await Promise.all([...first, ...second]);
    // Each request is answered as if added one by one: 305 different counts, in arrival order.
    expect(answers.map((a) => a.hits)).toEqual(Array.from({ length: 305 }, (_, k) => k + 1));
    expect(hits).toBe(305);
  });

  it('decides concurrent requests one by one at the limit: a group add refuses only the hits past it', async () => {
    const shared = sharedCounter();
    const counter = new BatchedCounter(shared.add, 5);
    const answers = await Promise.all(Array.from({ length: 8 }, () => counter.hit('org:a')));
    expect(answers.map((a) => a.hits)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(shared.adds).toEqual([8]);
  });

  it('under concurrent load, admits at most MAX_PENDING without the shared count and writes far less than once per request', async () => {
    let hits = 0;
    const adds: number[] = [];
    let maxUnshared = 0;
    let admitted = 0;
    const add = async (_bucket: string, n: number): Promise<WindowState> => {
      adds.push(n);
      await sleep(1);
      hits += n;
      return { hits, resetMs: 10_000 };
    };
    const counter = new BatchedCounter(add, 100_000);
    await counter.hit('org:a');
    admitted += 1;
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          await counter.hit('org:a');
          admitted += 1;
          maxUnshared = Math.max(maxUnshared, admitted - hits);
        }),
      );
    }
    await sleep(150);
    expect(hits).toBe(1_001);
    expect(maxUnshared).toBeLessThanOrEqual(MAX_PENDING);
    expect(adds.length).toBeLessThan(1_001 / 5);
  });

  it('goes exact again in the last 10% before the limit, so the request over the limit sees it', async () => {
    const shared = sharedCounter();
    const counter = new BatchedCounter(shared.add, 1_000);
    let last = 0;
    for (let n = 0; n < 1_001; n++) last = (await counter.hit('org:a')).hits;
    expect(last).toBe(1_001);
    await sleep(150);
    expect(shared.total()).toBe(1_001);
    // From 900 on, every request is its own add (the one that crossed the margin carries what was pending).
    expect(shared.adds.slice(-100).every((n) => n === 1)).toBe(true);
  });

  it('counts a batch still on its way when requests reach the limit: one process admits exactly the limit', async () => {
    let hits = 0;
    let hold = false;
    const held: (() => void)[] = [];
    const add = async (_bucket: string, n: number): Promise<WindowState> => {
      if (hold) {
        hold = false;
        await new Promise<void>((resolve) => held.push(resolve));
      }
      hits += n;
      return { hits, resetMs: 10_000 };
    };
    const counter = new BatchedCounter(add, 500);
    let admitted = 0;
    const admit = async (): Promise<void> => {
      if ((await counter.hit('org:a')).hits <= 500) admitted += 1;
    };
    for (let n = 0; n < 395; n++) await admit();
    await sleep(150);
    expect(hits).toBe(395);
    // Five more are admitted here; their batch is sent after FLUSH_MS and answered only later.
    hold = true;
    for (let n = 0; n < 5; n++) await admit();
    await sleep(150);
    expect(held).toHaveLength(1);
    const rest = Array.from({ length: 200 }, admit);
    await sleep(10);
    held.shift()?.();
    await Promise.all(rest);
    expect(admitted).toBe(500);
    expect(hits).toBe(600);
  });

  it('admits exactly the limit of a burst arriving over many ticks while adds of varying latency are on their way', async () => {
    let hits = 0;
    const add = async (_bucket: string, n: number): Promise<WindowState> => {
      await sleep(Math.floor(Math.random() * 4));
      hits += n;
      return { hits, resetMs: 10_000 };
    };
    const counter = new BatchedCounter(add, 500);
    let admitted = 0;
    await Promise.all(
      Array.from({ length: 520 }, async (_, k) => {
        await sleep(k % 7 === 0 ? 0 : Math.floor(Math.random() * 60));
        if ((await counter.hit('org:a')).hits <= 500) admitted += 1;
      }),
    );
    await sleep(150);
    expect(admitted).toBe(500);
    expect(hits).toBe(520);
  });

  it('adds what is pending when drained', async () => {
    const shared = sharedCounter();
    const counter = new BatchedCounter(shared.add, 10_000);
    for (let n = 0; n < 10; n++) await counter.hit('org:a');
    await counter.drain();
    expect(shared.total()).toBe(10);
  });
});
