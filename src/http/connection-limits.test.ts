import { describe, expect, it } from 'vitest';
import { clientKey, httpServerOptions } from './connection-limits.ts';

describe('connection caps', () => {
  it('count an IPv4 client by its address (also mapped into IPv6) and an IPv6 client by its /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:bbbb::2'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
  });

  it("check Node's timeouts often enough to enforce them near their bound", () => {
    expect(
      httpServerOptions({
        requestTimeoutMs: 30_000,
        headersTimeoutMs: 10_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 1,
        maxConnectionsPerClient: 1,
      }),
    ).toEqual({ requestTimeout: 30_000, headersTimeout: 10_000, connectionsCheckingInterval: 1000 });
  });
});
