import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../sql/webhook-deliveries.ts';
import { createSettler, type RecordAttempts } from './settler.ts';

/** A settle statement the test answers: each call waits until released; ids in `lost` are not settled. */
function fakeRecord(lost = new Set<string>()) {
  const calls: string[][] = [];
  const pending: { go: () => void; fail: (error: Error) => void }[] = [];
  const record: RecordAttempts = async (attempts) => {
    const ids = attempts.map((a) => a.record.deliveryId);
    calls.push(ids);
    await new Promise<void>((resolve, reject) => { pending.push({ go: resolve, fail: reject }); });
    return new Set(ids.filter((id) => !lost.has(id)));
  };
  return { record, calls, pending };
}

const attempt = (deliveryId: string): AttemptRecord => ({
  deliveryId, attempt: 1, url: 'https://example.com/hooks', startedAt: new Date(), durationMs: 3, statusCode: 200, error: null, excerpt: null,
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

  it('fails only the batch whose statement failed; the next batch is settled', async () => {
    const { record, calls, pending } = fakeRecord();
    const settler = createSettler(record);
    const first = settler.settle(attempt('a'), delivered);
    await sleep(0);
    const second = settler.settle(attempt('b'), delivered);
    pending.shift()?.fail(new Error('connection terminated'));
    await expect(first).rejects.toThrow('connection terminated');
    await sleep(0);
    expect(calls).toEqual([['a'], ['b']]);
    pending.shift()?.go();
    expect(await second).toBe(true);
  });
});
