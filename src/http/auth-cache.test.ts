import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientAuthCache } from './auth-cache.ts';

const tenant = { organizationId: 'org-1', environment: 'sandbox' as const, products: [], disabledEndpoints: [] };

afterEach(() => {
  vi.useRealTimers();
});

describe('ClientAuthCache', () => {
  it('answers a verified client_id and secret until the TTL passes, and nothing for another secret', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const cache = new ClientAuthCache(5);
    cache.remember('lp_sandbox_a', 'secret-1', tenant, null);
    expect(cache.get('lp_sandbox_a', 'secret-1')).toEqual(tenant);
    expect(cache.get('lp_sandbox_a', 'secret-2')).toBeNull();
    expect(cache.get('lp_sandbox_b', 'secret-1')).toBeNull();
    vi.advanceTimersByTime(4_999);
    expect(cache.get('lp_sandbox_a', 'secret-1')).toEqual(tenant);
    vi.advanceTimersByTime(1);
    expect(cache.get('lp_sandbox_a', 'secret-1')).toBeNull();
  });

  it('never keeps a secret past its own expiry (a rotated-out secret in its grace period)', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const cache = new ClientAuthCache(5);
    cache.remember('lp_sandbox_a', 'old', tenant, new Date(1_002_000));
    vi.advanceTimersByTime(1_999);
    expect(cache.get('lp_sandbox_a', 'old')).toEqual(tenant);
    vi.advanceTimersByTime(1);
    expect(cache.get('lp_sandbox_a', 'old')).toBeNull();
  });

  it('forgets an organisation at once, and remembers nothing with a TTL of 0', () => {
    const cache = new ClientAuthCache(5);
    cache.remember('lp_sandbox_a', 's', tenant, null);
    cache.remember('lp_sandbox_b', 's', { organizationId: 'org-2', environment: 'production', products: [], disabledEndpoints: [] }, null);
    cache.forgetOrganization('org-1');
    expect(cache.get('lp_sandbox_a', 's')).toBeNull();
    expect(cache.get('lp_sandbox_b', 's')).not.toBeNull();
    cache.configure(0);
    expect(cache.get('lp_sandbox_b', 's')).toBeNull();
    cache.remember('lp_sandbox_a', 's', tenant, null);
    expect(cache.get('lp_sandbox_a', 's')).toBeNull();
  });

  it('stays bounded: the oldest entry makes room', () => {
    const cache = new ClientAuthCache(60);
    for (let n = 0; n <= 10_000; n++) cache.remember(`id-${n}`, 's', tenant, null);
    expect(cache.get('id-0', 's')).toBeNull();
    expect(cache.get('id-1', 's')).toEqual(tenant);
    expect(cache.get('id-10000', 's')).toEqual(tenant);
  });
});
