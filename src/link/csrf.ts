/**
 * Cross-site request forgery protection for the link flow, without server-side
 * sessions: a random secret in an HttpOnly cookie (per browser), and form
 * tokens that are HMACs of what the form acts on (the link token, the OAuth
 * state) keyed with that secret. Another site can neither read the cookie nor
 * compute the token, and a token is only good for the flow it was issued for.
 * Works across restarts and several API instances: nothing is kept in memory.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CSRF_COOKIE = 'lp_link';
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const COOKIE_MAX_AGE_SECONDS = 24 * 60 * 60;

/** A cookie of the request, parsed by `cookie` (the parser @fastify/cookie uses). */
function cookieValue(header: string | undefined, name: string): string | null {
  return header === undefined ? null : (parseCookie(header)[name] ?? null);
}

/** This browser's secret, or null when the cookie is missing or malformed. */
export function browserSecret(request: FastifyRequest): string | null {
  const value = cookieValue(request.headers.cookie, CSRF_COOKIE);
  return value !== null && SECRET_PATTERN.test(value) ? value : null;
}

/** The browser's secret, set as a cookie first when it has none yet (pages that render forms). */
export function ensureBrowserSecret(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = browserSecret(request);
  if (existing !== null) return existing;
  const secret = randomBytes(32).toString('base64url');
  // Lax: sent on the top-level GET back from the platform's consent page, not on cross-site POSTs.
  // Set by @fastify/cookie, registered in the link pages' scope (src/link/routes.ts).
  void reply.setCookie(CSRF_COOKIE, secret, { path: '/link', maxAge: COOKIE_MAX_AGE_SECONDS, httpOnly: true, sameSite: 'lax', secure });
  return secret;
}

function mac(secret: string, purpose: string, subject: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${subject}`).digest('base64url');
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Token for forms acting on one link flow (credentials) or one OAuth state (tenant pick). */
export function formToken(secret: string, subject: string): string {
  return mac(secret, 'form', subject);
}

export function formTokenValid(secret: string | null, subject: string, presented: string | undefined): boolean {
  return secret !== null && presented !== undefined && same(formToken(secret, subject), presented);
}

/**
 * An OAuth state bound to this browser: random, plus a MAC of it under the
 * browser's secret, so a callback carrying someone else's state (login CSRF)
 * is refused before the state is even looked up.
 */
export function newOAuthState(secret: string): string {
  const nonce = randomBytes(24).toString('base64url');
  return `${nonce}.${mac(secret, 'oauth-state', nonce).slice(0, 22)}`;
}

export function oauthStateBound(secret: string | null, state: string): boolean {
  const dot = state.indexOf('.');
  if (secret === null || dot <= 0) return false;
  return same(mac(secret, 'oauth-state', state.slice(0, dot)).slice(0, 22), state.slice(dot + 1));
}
