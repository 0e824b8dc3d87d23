import { describe, expect, it } from 'vitest';
import type { ConnectorContext } from './connector.ts';
import { perJob } from './per-job.ts';

// Only identity matters: the cache is keyed by the context object.
const job = (): ConnectorContext => ({}) as ConnectorContext;

describe('perJob', () => {
  it('loads once per job, shares a concurrent load, and keeps jobs apart', async () => {
    let loads = 0;
    const value = perJob(() => Promise.resolve(`v${String(++loads)}`));
    const first = job();
    expect(value.known(first)).toBeUndefined();
    expect(await Promise.all([value.get(first), value.get(first)])).toEqual(['v1', 'v1']);
    expect(value.known(first)).toBe('v1');
    expect(await value.get(job())).toBe('v2');
    expect(loads).toBe(2);
  });

  it('forgets a failed load, so the next caller asks again', async () => {
    let calls = 0;
    const value = perJob(() => (++calls === 1 ? Promise.reject(new Error('platform down')) : Promise.resolve('ok')));
    const ctx = job();
    await expect(value.get(ctx)).rejects.toThrow('platform down');
    expect(value.known(ctx)).toBeUndefined();
    expect(await value.get(ctx)).toBe('ok');
  });

  it('takes a value a read had anyway, without loading', async () => {
    const value = perJob<string>(() => Promise.reject(new Error('must not load')));
    const ctx = job();
    value.remember(ctx, 'EUR');
    expect(value.known(ctx)).toBe('EUR');
    expect(await value.get(ctx)).toBe('EUR');
  });
});
