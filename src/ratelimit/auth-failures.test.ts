import { describe, expect, it } from 'vitest';
import { addressKey } from './auth-failures.ts';

describe('addressKey: what one source address is counted as', () => {
  it('IPv4 as it is, IPv4-mapped IPv6 as its IPv4 address, IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::ffff')).toBe(addressKey('2001:0db8:0001:0002:aaaa::1'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    // Not an address (a test's or a proxy's placeholder): counted as given.
    expect(addressKey('unknown')).toBe('unknown');
  });
});
