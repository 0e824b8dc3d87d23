import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../errors/catalogue.ts';
import { OrganizationGate } from './organization-gate.ts';
import { newRequestScope } from './request-scope.ts';
import { throttledRequests } from '../metrics/registry.ts';

describe('OrganizationGate', () => {
  it('lets `concurrency` requests of one organisation in, queues the next, and hands a freed slot to the first in line', async () => {
    const gate = new OrganizationGate({ concurrency: 2, waitMs: 5000, costlyConcurrency: 1 });
    const [a, b, c] = [newRequestScope('org'), newRequestScope('org'), newRequestScope('org')];
    await gate.enter(a);
    await gate.enter(b);
    let cIn = false;
    const waiting = gate.enter(c).then(() => {
      cIn = true;
    });
    await Promise.resolve();
    expect(cIn).toBe(false);
    expect(gate.usage('org')).toEqual({ active: 2, waiting: 1 });
    gate.leave(a);
    await waiting;
    expect(gate.usage('org')).toEqual({ active: 2, waiting: 0 });
    gate.leave(b);
    gate.leave(c);
    await Promise.resolve();
    expect(gate.usage('org')).toEqual({ active: 0, waiting: 0 });
  });

  it('a second connection of the same request needs no second slot (a request never waits for itself)', async () => {
    const gate = new OrganizationGate({ concurrency: 1, waitMs: 0, costlyConcurrency: 1 });
    const scope = newRequestScope('org');
    await gate.enter(scope);
    await gate.enter(scope);
    expect(gate.usage('org').active).toBe(1);
    gate.leave(scope);
    expect(gate.usage('org').active).toBe(1);
    gate.leave(scope);
    await Promise.resolve();
    expect(gate.usage('org').active).toBe(0);
  });

  it('refuses with 429 and Retry-After after waitMs; other organisations are not affected', async () => {
    const gate = new OrganizationGate({ concurrency: 1, waitMs: 20, costlyConcurrency: 1 });
    const first = newRequestScope('busy');
    await gate.enter(first);
    const error: unknown = await gate.enter(newRequestScope('busy')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).status).toBe(429);
    expect((error as ServiceError).headers['Retry-After']).toBe('1');
    await gate.enter(newRequestScope('calm'));
    expect(gate.usage('calm').active).toBe(1);
    expect(gate.usage('busy')).toEqual({ active: 1, waiting: 0 });
  });

  it('gives the slot back when the request ends, even with a connection still out', async () => {
    const gate = new OrganizationGate({ concurrency: 1, waitMs: 0, costlyConcurrency: 1 });
    const leaky = newRequestScope('org');
    await gate.enter(leaky);
    gate.end(leaky);
    await Promise.resolve();
    expect(gate.usage('org').active).toBe(0);
    gate.leave(leaky);
    await gate.enter(newRequestScope('org'));
    expect(gate.usage('org').active).toBe(1);
  });

  it('runs costly reads `costlyConcurrency` at a time per organisation, apart from its connection slots', async () => {
    const gate = new OrganizationGate({ concurrency: 2, waitMs: 5000, costlyConcurrency: 1 });
    const first = Promise.withResolvers<undefined>();
    const running = gate.costly('org', () => first.promise);
    let secondRan = false;
    const second = gate.costly('org', () => {
      secondRan = true;
      return Promise.resolve('second');
    });
    await Promise.resolve();
    expect(secondRan).toBe(false);
    expect(gate.costlyUsage('org')).toEqual({ active: 1, waiting: 1 });
    // The organisation's connection slots are untouched, and another organisation's costly read runs at once.
    await gate.enter(newRequestScope('org'));
    expect(gate.usage('org').active).toBe(1);
    await expect(gate.costly('other', () => Promise.resolve('other'))).resolves.toBe('other');
    first.resolve(undefined);
    await running;
    await expect(second).resolves.toBe('second');
    expect(gate.costlyUsage('org')).toEqual({ active: 0, waiting: 0 });
  });

  it('gives a costly slot back when the read fails, and refuses a waiter after waitMs with 429 naming filter', async () => {
    const gate = new OrganizationGate({ concurrency: 2, waitMs: 20, costlyConcurrency: 1 });
    await expect(gate.costly('org', () => Promise.reject(new Error('read failed')))).rejects.toThrow('read failed');
    expect(gate.costlyUsage('org')).toEqual({ active: 0, waiting: 0 });
    const held = Promise.withResolvers<undefined>();
    const running = gate.costly('org', () => held.promise);
    const error: unknown = await gate.costly('org', () => Promise.resolve()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).status).toBe(429);
    expect((error as ServiceError).metadata).toMatchObject({ reason: 'organization_costly_reads', field: 'filter' });
    held.resolve(undefined);
    await running;
    expect(gate.costlyUsage('org')).toEqual({ active: 0, waiting: 0 });
  });

  describe('large answers', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("gives a slot back once the answer's bytes fit the organisation's rate, not before; another organisation is never held", async () => {
      vi.useFakeTimers();
      const gate = new OrganizationGate({ concurrency: 1, waitMs: 60_000, costlyConcurrency: 1, largeAnswerBytesPerSecond: 1000 });
      const release = await gate.holdLargeAnswer('org');
      vi.advanceTimersByTime(100);
      // 500 bytes at 1,000 a second: 500 ms from when the slot was taken, 400 ms from now.
      release(500);
      const next = gate.holdLargeAnswer('org');
      expect(gate.largeAnswerUsage('org')).toEqual({ active: 1, waiting: 1 });
      (await gate.holdLargeAnswer('other'))(0);
      expect(gate.largeAnswerUsage('other')).toEqual({ active: 0, waiting: 0 });
      vi.advanceTimersByTime(399);
      expect(gate.largeAnswerUsage('org')).toEqual({ active: 1, waiting: 1 });
      vi.advanceTimersByTime(1);
      (await next)();
      expect(gate.largeAnswerUsage('org')).toEqual({ active: 0, waiting: 0 });
    });

    it('an answer that took longer than its bytes need gives its slot back at once, and a second call changes nothing', async () => {
      vi.useFakeTimers();
      const gate = new OrganizationGate({ concurrency: 1, waitMs: 60_000, costlyConcurrency: 1, largeAnswerBytesPerSecond: 1000 });
      const release = await gate.holdLargeAnswer('org');
      vi.advanceTimersByTime(2000);
      release(1000);
      release(1_000_000);
      expect(gate.largeAnswerUsage('org')).toEqual({ active: 0, waiting: 0 });
      (await gate.holdLargeAnswer('org'))();
      expect(gate.largeAnswerUsage('org')).toEqual({ active: 0, waiting: 0 });
    });
  });

  it('counts each refusal in ledgerport_http_throttled_total by its reason', async () => {
    const count = async (reason: string): Promise<number> =>
      (await throttledRequests.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;
    const before = {
      concurrency: await count('organization_concurrency'),
      large: await count('organization_large_answers'),
      costly: await count('organization_costly_reads'),
    };
    const gate = new OrganizationGate({ concurrency: 1, waitMs: 0, costlyConcurrency: 1 });
    await gate.enter(newRequestScope('org'));
    await expect(gate.enter(newRequestScope('org'))).rejects.toBeInstanceOf(ServiceError);
    const release = await gate.holdLargeAnswer('org');
    await expect(gate.holdLargeAnswer('org')).rejects.toBeInstanceOf(ServiceError);
    release();
    const held = Promise.withResolvers<undefined>();
    const running = gate.costly('org', () => held.promise);
    await expect(gate.costly('org', () => Promise.resolve())).rejects.toBeInstanceOf(ServiceError);
    held.resolve(undefined);
    await running;
    expect({
      concurrency: (await count('organization_concurrency')) - before.concurrency,
      large: (await count('organization_large_answers')) - before.large,
      costly: (await count('organization_costly_reads')) - before.costly,
    }).toEqual({ concurrency: 1, large: 1, costly: 1 });
  });
});
