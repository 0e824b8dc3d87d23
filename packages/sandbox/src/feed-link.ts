/**
 * Mapping links of bank feeds: the address of the sandbox's own "platform UI" page where the
 * business links a feed to a ledger account. The token in it says which account and feed, until
 * when, and is signed (HMAC-SHA256 over account key + feed id + expiry) so that a changed or stale
 * link is refused as a real platform would refuse it.
 *
 * The signing key is derived, not stored: a constant plus the account's key and seed. Any process
 * (API, worker, the standalone server) can then check a link another one issued, with no shared
 * secret to configure. That the key can be recomputed by anyone who reads this file is fine for a
 * synthetic platform: its credentials are public (pass_good), so a link grants nothing the
 * documented API does not already; what the signature gives is the behaviour of tampered and
 * expired links, for the flow and its tests to be real.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How long a mapping link works. */
export const MAPPING_LINK_TTL_MS = 60 * 60_000;

/** Path of the linking page; the token follows. */
export const LINK_PAGE_PATH = '/sandbox/bank-feeds/link';

/**
 * A token is `<account number>.<feed id>.<expiry, s>.<signature>`: short enough (about 50
 * characters) for a path parameter under routers' limits (Fastify's default is 100), whatever the
 * length of the username, which the signature covers without the token carrying it.
 */
const TOKEN = /^(\d{1,10})\.([A-Z]{1,10}-\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/;
/** 128 bits of HMAC-SHA256: plenty against guessing, and keeps the token short. */
const SIGNATURE_BYTES = 16;

export interface LinkClaims {
  /** sandbox_platform.accounts_state.id */
  accountNumber: number;
  feedId: string;
  /** ms since epoch, whole seconds. */
  expiresAt: number;
}

/** The account a token is checked against: the key and seed derive the signing key. */
export interface LinkAccount {
  accountKey: string;
  seed: number;
}

export type LinkVerdict = { ok: true; claims: LinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

function signature(claims: LinkClaims, account: LinkAccount): string {
  const key = createHash('sha256').update(`ledgerport-sandbox-feed-link:v1\u0000${account.accountKey}\u0000${account.seed}`).digest();
  const message = `${account.accountKey}\u0000${claims.feedId}\u0000${Math.floor(claims.expiresAt / 1000)}`;
  return createHmac('sha256', key).update(message).digest().subarray(0, SIGNATURE_BYTES).toString('base64url');
}

export function signLinkToken(claims: LinkClaims, account: LinkAccount): string {
  return `${claims.accountNumber}.${claims.feedId}.${Math.floor(claims.expiresAt / 1000)}.${signature(claims, account)}`;
}

/** What an unverified token claims (the account it names decides the key it is checked with), or null when it is no token of ours. */
export function readLinkClaims(token: string): LinkClaims | null {
  const match = TOKEN.exec(token);
  if (match?.[1] === undefined || match[2] === undefined || match[3] === undefined) return null;
  const accountNumber = Number(match[1]);
  // Account numbers are PostgreSQL integers; a bigger one is no account of ours.
  if (accountNumber > 2_147_483_647) return null;
  return { accountNumber, feedId: match[2], expiresAt: Number(match[3]) * 1000 };
}

/** Checks the signature against the account the token names, then the expiry. */
export function verifyLinkToken(token: string, account: LinkAccount, now: number): LinkVerdict {
  const claims = readLinkClaims(token);
  if (claims === null) return { ok: false, reason: 'invalid' };
  const wanted = Buffer.from(signature(claims, account));
  const presented = Buffer.from(token.slice(token.lastIndexOf('.') + 1));
  if (wanted.length !== presented.length || !timingSafeEqual(wanted, presented)) return { ok: false, reason: 'invalid' };
  return claims.expiresAt < now ? { ok: false, reason: 'expired' } : { ok: true, claims };
}

/** The page address for a token, under the platform's public base address. */
export function linkPageUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${LINK_PAGE_PATH}/${encodeURIComponent(token)}`;
}
