/**
 * Where webhooks may go. In production (NODE_ENV=production, or
 * WEBHOOK_ALLOW_PRIVATE=false) deliveries to loopback, private, link-local
 * (cloud metadata), carrier-grade NAT, unique-local, multicast and unspecified
 * addresses are refused. The check runs on the addresses DNS answered, inside
 * the connection's own lookup, so the socket connects to the very address that
 * was checked: a name that resolves to 127.0.0.1, or that changes its answer
 * between a check and the connect (DNS rebinding), never gets through.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** True for addresses a production deployment must never send webhooks to. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped (::ffff:127.0.0.1) and IPv4-compatible forms are judged by their IPv4 address.
  const mapped = /^::(ffff:)?(\d{1,3}(\.\d{1,3}){3})$/i.exec(bare);
  if (mapped?.[2] !== undefined) return BLOCKED.check(mapped[2], 'ipv4');
  return BLOCKED.check(bare, 'ipv6');
}

export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';
  constructor(host: string, address: string) {
    super(`refused: ${host} resolves to ${address}, a private, loopback or link-local address (WEBHOOK_ALLOW_PRIVATE=false)`);
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
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    const first = addresses[0];
    if (bad !== undefined || first === undefined) {
      callback(new ForbiddenAddressError(hostname, bad?.address ?? '(no address)'), '', 0);
      return;
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
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!options.allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) {
    return `points at ${host}, a private, loopback or link-local address, which is refused when WEBHOOK_ALLOW_PRIVATE=false`;
  }
  return null;
}
