import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../sql/webhook-deliveries.ts';
import { createSettler, settledKey, type RecordAttempts } from './settler.ts';

/** A settle statement the test answers: each call waits until released; ids in `lost` are not settled. */
function fakeRecord(lost = new Set<string>()) {
  const calls: string[][] = [];
  const pending: { go: () => void; fail: (error: Error) => void }[] = [];
  const record: RecordAttempts = async (attempts) => {
    const ids = attempts.map((a) => a.record.deliveryId);
    calls.push(ids);
    await new Promise<void>((resolve, reject) => {
      pending.push({ go: resolve, fail: reject });
    });
    return new Set(attempts.filter((a) => !lost.has(a.record.deliveryId)).map((a) => settledKey(a.record)));
  };
  return { record, calls, pending };
}

const attempt = (deliveryId: string): AttemptRecord => ({
  deliveryId,
  attempt: 1,
  url: 'https://example.com/hooks',
  startedAt: new Date(),
  durationMs: 3,
  statusCode: 200,
  error: null,
  excerpt: null,
});
const delivered = { delivered: true, retryAt: null };

describe('createSettler', () => {
  it('settles one attempt at once, and every attempt that finishes meanwhile together in the next statement', async () => {
    const { record, calls, pending } = fakeRecord(new Set(['d3']));
    const settler = createSettler(record);
    const first = settler.settle(attempt('d1'), delivered);
    await sleep(0);
    expect(calls).toEqual([['d1']]);
    const rest = ['d4', 'd2', 'd3'].map((id) => settler.settle(attempt(id), delivered));
    await sleep(0);
    expect(calls).toHaveLength(1);
    pending.shift()?.go();
    expect(await first).toBe(true);
    await sleep(0);
    expect(calls[1]).toEqual(['d4', 'd2', 'd3']);
    pending.shift()?.go();
    // d3's lease had passed to another worker: logged, not settled by this claim.
    expect(await Promise.all(rest)).toEqual([true, true, false]);
  });

  it('when a batch statement fails, tries each attempt alone: one bad row costs only itself', async () => {
    const calls: string[][] = [];
    // A statement holding 'bad' fails (as PostgreSQL refuses a row it cannot store); any other succeeds.
    const record: RecordAttempts = (attempts) => {
      const ids = attempts.map((a) => a.record.deliveryId);
      calls.push(ids);
      return ids.includes('bad')
        ? Promise.reject(new Error('invalid byte sequence'))
        : Promise.resolve(new Set(attempts.map((a) => settledKey(a.record))));
    };
    const settler = createSettler(record);
    const first = settler.settle(attempt('a'), delivered);
    const rest = ['b', 'bad', 'c'].map((id) => settler.settle(attempt(id), delivered));
    expect(await first).toBe(true);
    const outcomes = await Promise.allSettled(rest);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(calls).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('keys what it settled by delivery and attempt: a stale claim of a re-claimed delivery is not reported settled', async () => {
    const settler = createSettler((attempts) =>
      Promise.resolve(new Set(attempts.filter((a) => a.record.attempt === 2).map((a) => settledKey(a.record)))),
    );
    const results = await Promise.all([
      settler.settle({ ...attempt('d'), attempt: 1 }, delivered),
      settler.settle({ ...attempt('d'), attempt: 2 }, delivered),
    ]);
    expect(results).toEqual([false, true]);
  });
});
