/**
 * Where webhooks may go. With WEBHOOK_ALLOW_PRIVATE=false (the production
 * default) only global unicast addresses are allowed: every address is
 * classified with ipaddr.js's special-purpose ranges (the IANA IPv4 and IPv6
 * special-purpose address registries) and anything that is not `unicast` is
 * refused, including the few registry ranges marked globally reachable (anycast
 * for PCP, TURN, AS112 and AMT, ORCHIDv2 and drone identifiers: services and
 * identifiers, never a webhook receiver). IPv6 forms that carry an IPv4 address
 * are judged by it or refused: IPv4-mapped (::ffff:0:0/96) and the NAT64
 * well-known prefix (64:ff9b::/96) by the embedded IPv4 address; the local-use
 * NAT64 prefix (64:ff9b:1::/48), 6to4 (2002::/16), Teredo (2001::/32),
 * IPv4-translated (::ffff:0:0:0/96) and the deprecated IPv4-compatible ::/96
 * (`[::127.0.0.1]`) are refused. IPv6 outside 2000::/3, the one block the IANA
 * IPv6 address space registry assigns to global unicast, is refused as well.
 *
 * The check runs on the addresses DNS answered, inside the connection's own
 * lookup, so the socket connects to the very address that was checked: a name
 * that resolves to 127.0.0.1, or that changes its answer between a check and
 * the connect (DNS rebinding), never gets through. Literal addresses, which
 * sockets do not look up, are judged before any connection.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The IANA IPv6 address space registry's global unicast allocation; the rest of the IPv6 space is reserved. */
const GLOBAL_UNICAST_IPV6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** RFC 6052's well-known NAT64 prefix (globally reachable): the last 32 bits are the IPv4 address it reaches. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

function ipv4Refusal(address: ipaddr.IPv4): string | null {
  const range = address.range();
  return range === 'unicast' ? null : range;
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function lastIpv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  return new ipaddr.IPv4(address.toByteArray().slice(12));
}

function ipv6Refusal(address: ipaddr.IPv6): string | null {
  if (address.isIPv4MappedAddress()) {
    const reason = ipv4Refusal(address.toIPv4Address());
    return reason === null ? null : `IPv4-mapped ${reason}`;
  }
  if (address.match(NAT64_WELL_KNOWN)) {
    const reason = ipv4Refusal(lastIpv4(address));
    return reason === null ? null : `NAT64 of ${reason}`;
  }
  const range = address.range();
  if (range !== 'unicast') return range;
  return address.match(GLOBAL_UNICAST_IPV6) ? null : 'outside global unicast 2000::/3';
}

/**
 * Why a production deployment must never send webhooks to this address (the
 * name of its special-purpose range), or null for a global unicast address.
 * Accepts bracketed IPv6 as URLs write it; anything that is not an IP address is refused.
 */
export function addressRefusal(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // node:net's isIP accepts only the canonical forms DNS answers and WHATWG URL parsing produces
  // (no octal, hex or shortened IPv4), so ipaddr.js's lenient parser never sees anything else.
  const family = isIP(bare);
  if (family === 4) return ipv4Refusal(ipaddr.IPv4.parse(bare));
  if (family === 6) return ipv6Refusal(ipaddr.IPv6.parse(bare));
  return 'not an IP address';
}

/** How a refusal reads in an error and in the delivery log. */
export const notGlobal = (reason: string): string =>
  `which is not a global unicast address (${reason}); private, loopback, link-local and special-purpose addresses are refused when WEBHOOK_ALLOW_PRIVATE=false`;

/** True for addresses a production deployment must never send webhooks to. */
export function isForbiddenAddress(address: string): boolean {
  return addressRefusal(address) !== null;
}

export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';
  constructor(host: string, address: string, reason: string) {
    super(`refused: ${host} resolves to ${address}, ${notGlobal(reason)}`);
    this.name = 'ForbiddenAddressError';
  }
}

/** A DNS lookup for sockets that refuses forbidden answers (all of them are checked, not only the first). */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error !== null) {
      callback(error, '', 0);
      return;
    }
    const first = addresses[0];
    if (first === undefined) {
      callback(new ForbiddenAddressError(hostname, '(no address)', 'missing'), '', 0);
      return;
    }
    for (const answer of addresses) {
      const reason = addressRefusal(answer.address);
      if (reason !== null) {
        callback(new ForbiddenAddressError(hostname, answer.address, reason), '', 0);
        return;
      }
    }
    if (options.all === true) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};

/** Why a webhook URL cannot be used, or null when it can. Literal addresses are judged here too; names at connect time. */
export function webhookUrlProblem(raw: string, options: { allowPrivate: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URL; expected e.g. https://example.com/webhooks/ledgerport';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use http or https';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials; verify the X-Service-Signature header instead';
  if (url.hash !== '') return 'must not have a #fragment';
  if (raw.length > 2000) return 'is longer than 2000 characters';
  // WHATWG parsing has already turned 2130706433, 0x7f.1 and 0177.0.0.1 into 127.0.0.1, and [::127.0.0.1] into [::7f00:1].
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const reason = options.allowPrivate || isIP(host) === 0 ? null : addressRefusal(host);
  if (reason !== null) {
    return `points at ${host}, ${notGlobal(reason)}`;
  }
  return null;
}
