/**
 * The SSRF guard against every range of the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (tables copied from the registries, with their "globally
 * reachable" column), a first, a middle and a last address of each, written in
 * the forms a user can put in a webhook URL: dotted, decimal, hex and octal
 * IPv4 (WHATWG URL parsing turns them into dotted form), bracketed IPv6, and
 * IPv4 inside IPv6 (mapped, compatible, NAT64). The rule under test
 * (docs/webhooks.md): only global unicast is allowed; forms that embed an IPv4
 * address are judged by it (IPv4-mapped, the NAT64 well-known prefix) or refused.
 */
import { describe, expect, it } from 'vitest';
import { addressRefusal, isForbiddenAddress, webhookUrlProblem } from './address-guard.ts';
import { createSender } from './sender.ts';

/** Globally reachable per the registry: yes, no, or n/a (the registry's own N/A). Every range is refused unless `embedded`. */
type Reachable = 'yes' | 'no' | 'n/a';
interface Range {
  cidr: string;
  name: string;
  reachable: Reachable;
  embedded?: true;
}

// https://www.iana.org/assignments/iana-ipv4-special-registry
const IPV4: Range[] = [
  { cidr: '0.0.0.0/8', name: '"This network"', reachable: 'no' },
  { cidr: '10.0.0.0/8', name: 'Private-Use', reachable: 'no' },
  { cidr: '100.64.0.0/10', name: 'Shared Address Space', reachable: 'no' },
  { cidr: '127.0.0.0/8', name: 'Loopback', reachable: 'no' },
  { cidr: '169.254.0.0/16', name: 'Link Local', reachable: 'no' },
  { cidr: '172.16.0.0/12', name: 'Private-Use', reachable: 'no' },
  { cidr: '192.0.0.0/24', name: 'IETF Protocol Assignments', reachable: 'n/a' },
  { cidr: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix', reachable: 'no' },
  { cidr: '192.0.0.8/32', name: 'IPv4 dummy address', reachable: 'no' },
  { cidr: '192.0.0.9/32', name: 'Port Control Protocol Anycast', reachable: 'yes' },
  { cidr: '192.0.0.10/32', name: 'Traversal Using Relays around NAT Anycast', reachable: 'yes' },
  { cidr: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery', reachable: 'no' },
  { cidr: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery', reachable: 'no' },
  { cidr: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', reachable: 'no' },
  { cidr: '192.31.196.0/24', name: 'AS112-v4', reachable: 'yes' },
  { cidr: '192.52.193.0/24', name: 'AMT', reachable: 'yes' },
  { cidr: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)', reachable: 'n/a' },
  { cidr: '192.168.0.0/16', name: 'Private-Use', reachable: 'no' },
  { cidr: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', reachable: 'yes' },
  { cidr: '198.18.0.0/15', name: 'Benchmarking', reachable: 'no' },
  { cidr: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', reachable: 'no' },
  { cidr: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', reachable: 'no' },
  { cidr: '240.0.0.0/4', name: 'Reserved', reachable: 'no' },
  { cidr: '255.255.255.255/32', name: 'Limited Broadcast', reachable: 'no' },
  // Not in the special-purpose registry, but in the IPv4 address space registry as multicast.
  { cidr: '224.0.0.0/4', name: 'Multicast', reachable: 'no' },
];

// https://www.iana.org/assignments/iana-ipv6-special-registry
const IPV6: Range[] = [
  { cidr: '::1/128', name: 'Loopback Address', reachable: 'no' },
  { cidr: '::/128', name: 'Unspecified Address', reachable: 'no' },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped Address', reachable: 'no', embedded: true },
  { cidr: '64:ff9b::/96', name: 'IPv4-IPv6 Translat.', reachable: 'yes', embedded: true },
  { cidr: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translat. (local use)', reachable: 'no' },
  { cidr: '100::/64', name: 'Discard-Only Address Block', reachable: 'no' },
  { cidr: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', reachable: 'no' },
  { cidr: '2001::/23', name: 'IETF Protocol Assignments', reachable: 'n/a' },
  { cidr: '2001::/32', name: 'TEREDO', reachable: 'n/a' },
  { cidr: '2001:1::1/128', name: 'Port Control Protocol Anycast', reachable: 'yes' },
  { cidr: '2001:1::2/128', name: 'Traversal Using Relays around NAT Anycast', reachable: 'yes' },
  { cidr: '2001:1::3/128', name: 'DNS-SD Service Registration Protocol Anycast', reachable: 'yes' },
  { cidr: '2001:2::/48', name: 'Benchmarking', reachable: 'no' },
  { cidr: '2001:3::/32', name: 'AMT', reachable: 'yes' },
  { cidr: '2001:4:112::/48', name: 'AS112-v6', reachable: 'yes' },
  { cidr: '2001:10::/28', name: 'Deprecated (previously ORCHID)', reachable: 'no' },
  { cidr: '2001:20::/28', name: 'ORCHIDv2', reachable: 'yes' },
  { cidr: '2001:30::/28', name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', reachable: 'yes' },
  { cidr: '2001:db8::/32', name: 'Documentation', reachable: 'no' },
  { cidr: '2002::/16', name: '6to4', reachable: 'n/a' },
  { cidr: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', reachable: 'yes' },
  { cidr: '3fff::/20', name: 'Documentation', reachable: 'no' },
  { cidr: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', reachable: 'no' },
  { cidr: 'fc00::/7', name: 'Unique-Local', reachable: 'no' },
  { cidr: 'fe80::/10', name: 'Link-Local Unicast', reachable: 'no' },
  // Not in the special-purpose registry, but in the IPv6 address space registry.
  { cidr: 'ff00::/8', name: 'Multicast', reachable: 'no' },
  { cidr: '::/96', name: 'IPv4-compatible (deprecated, RFC 4291)', reachable: 'no' },
  { cidr: '::ffff:0:0:0/96', name: 'IPv4-translated (RFC 6145)', reachable: 'no' },
  { cidr: 'fec0::/10', name: 'Site-local (deprecated, RFC 3879)', reachable: 'no' },
  { cidr: '4000::/3', name: 'Reserved by IETF (outside global unicast 2000::/3)', reachable: 'no' },
];

// The test's own address arithmetic (not the guard's library), on BigInts.
function ipv4ToBig(text: string): bigint {
  return text.split('.').reduce((sum, octet) => (sum << 8n) + BigInt(octet), 0n);
}
function bigToIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
}
function ipv6ToBig(text: string): bigint {
  const [head = '', tail] = text.split('::');
  const groups = (part: string | undefined): string[] => (part === undefined || part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((sum, group) => (sum << 16n) + BigInt(Number.parseInt(group, 16)), 0n);
}
function bigToIpv6(value: bigint): string {
  return Array.from({ length: 8 }, (_, n) => ((value >> BigInt((7 - n) * 16)) & 0xffffn).toString(16)).join(':');
}

/** First, middle and last address of a CIDR range, as numbers. */
function samples(cidr: string, bits: 32 | 128): bigint[] {
  const [network = '', prefix = ''] = cidr.split('/');
  const base = bits === 32 ? ipv4ToBig(network) : ipv6ToBig(network);
  const size = 1n << BigInt(bits - Number(prefix));
  return [...new Set([base, base + size / 2n, base + size - 1n])];
}

function inIpv4Table(value: bigint): boolean {
  return IPV4.some(({ cidr }) => {
    const [network = '', prefix = ''] = cidr.split('/');
    const size = 1n << BigInt(32 - Number(prefix));
    return value >= ipv4ToBig(network) && value < ipv4ToBig(network) + size;
  });
}

/** The IPv4 literal forms WHATWG URL parsing accepts for one address (all normalised to dotted decimal). */
function ipv4UrlForms(value: bigint): string[] {
  const octets = [24n, 16n, 8n, 0n].map((shift) => (value >> shift) & 255n);
  return [
    bigToIpv4(value),
    value.toString(10),
    `0x${value.toString(16)}`,
    octets.map((o) => `0${o.toString(8)}`).join('.'),
    `0x${(octets[0] ?? 0n).toString(16)}.${(value & 0xffffffn).toString(10)}`,
    `${bigToIpv4(value)}.`,
  ];
}

function expectRefusedEverywhere(url: string, why: string): void {
  const host = new URL(url).hostname;
  expect(isForbiddenAddress(host), `${why}: ${url} → ${host}`).toBe(true);
  expect(webhookUrlProblem(url, { allowPrivate: false }), `${why}: ${url}`).toMatch(/not a global unicast address/);
  expect(webhookUrlProblem(url, { allowPrivate: true }), `${why}: ${url} (private allowed)`).toBeNull();
}

function expectAllowed(url: string, why: string): void {
  const host = new URL(url).hostname;
  expect(addressRefusal(host), `${why}: ${url} → ${host}`).toBeNull();
  expect(webhookUrlProblem(url, { allowPrivate: false }), `${why}: ${url}`).toBeNull();
}

describe('address guard: IANA IPv4 special-purpose registry', () => {
  for (const range of IPV4) {
    it(`refuses ${range.cidr} (${range.name}, globally reachable: ${range.reachable}) in every literal form`, () => {
      for (const value of samples(range.cidr, 32)) {
        for (const form of ipv4UrlForms(value)) {
          expect(new URL(`http://${form}/`).hostname, form).toBe(bigToIpv4(value));
          expectRefusedEverywhere(`http://${form}/hooks`, range.name);
        }
        const dotted = bigToIpv4(value);
        // The same IPv4 address inside IPv6: mapped, compatible, translated, NAT64 (well-known and local-use), 6to4.
        for (const wrapped of [
          `::ffff:${dotted}`,
          `::${dotted}`,
          `::ffff:0:${dotted}`,
          `64:ff9b::${dotted}`,
          `64:ff9b:1::${dotted}`,
          `2002:${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}::1`,
        ]) {
          expectRefusedEverywhere(`http://[${wrapped}]:8080/hooks`, `${range.name} as ${wrapped}`);
        }
      }
    });
  }
});

describe('address guard: IANA IPv6 special-purpose registry', () => {
  for (const range of IPV6) {
    const rule = range.embedded === true ? 'judged by the IPv4 address it embeds' : 'refused';
    it(`${rule}: ${range.cidr} (${range.name}, globally reachable: ${range.reachable})`, () => {
      for (const value of samples(range.cidr, 128)) {
        const full = bigToIpv6(value);
        for (const form of [full, full.toUpperCase()]) {
          const url = `https://[${form}]/hooks`;
          if (range.embedded === true && !inIpv4Table(value & 0xffffffffn)) expectAllowed(url, `${range.name} of a public IPv4 address`);
          else expectRefusedEverywhere(url, range.name);
        }
        expect(isForbiddenAddress(full), full).toBe(!(range.embedded === true && !inIpv4Table(value & 0xffffffffn)));
      }
    });
  }
});

describe('address guard: what is allowed', () => {
  it('allows global unicast IPv4 and IPv6, also next to special-purpose ranges, and public IPv4 inside IPv4-mapped and NAT64 forms', () => {
    for (const host of [
      '8.8.8.8',
      '134744072',
      '0x8080808',
      '1.1.1.1',
      '93.184.216.34',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.0.1.0',
      '192.167.255.255',
      '192.169.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
      '[2606:4700:4700::1111]',
      '[2a00:1450:4001::200e]',
      '[2001:200::1]',
      '[2620:4f:7fff:ffff::1]',
      '[3ffe::1]',
      '[::ffff:8.8.8.8]',
      '[64:ff9b::8.8.8.8]',
      '[64:ff9b::808:808]',
    ]) {
      expectAllowed(`https://${host}/hooks`, 'global unicast');
    }
  });

  it('refuses what is not an address at all, and names only the DNS path for hosts', () => {
    expect(isForbiddenAddress('not-an-ip')).toBe(true);
    expect(isForbiddenAddress('0x7f.1')).toBe(true);
    // A name is judged at connect time, on what DNS answers (src/webhooks/sender.ts, delivery.test.ts).
    expect(webhookUrlProblem('https://hooks.example.com/x', { allowPrivate: false })).toBeNull();
  });
});

describe('sender: refused literals never open a connection', () => {
  it('refuses the forms the hand-written prefixes let through before connecting', async () => {
    const { send, close } = createSender({ allowPrivate: false, timeoutMs: 1_000 });
    try {
      for (const url of [
        'http://[::127.0.0.1]:9/',
        'http://[::ffff:127.0.0.1]:9/',
        'http://[::ffff:7f00:1]:9/',
        'http://[64:ff9b:1::7f00:1]:9/',
        'http://[64:ff9b::7f00:1]:9/',
        'http://[2002:7f00:1::1]:9/',
        'http://[2001::1]:9/',
        'http://2130706433:9/',
        'http://0x7f.1:9/',
        'http://[100:0:0:1::1]:9/',
        'http://192.0.2.1:9/',
        'http://[fec0::1]:9/',
      ]) {
        const result = await send(url, '{}', {});
        expect(result.kind, url).toBe('refused');
        expect(result.error, url).toMatch(/not a global unicast address/);
        expect(result.statusCode, url).toBeNull();
      }
    } finally {
      close();
    }
  });
});
