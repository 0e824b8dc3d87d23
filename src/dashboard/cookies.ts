/**
 * The dashboard's cookies. The session cookie is HttpOnly (no script reads it), SameSite=Lax (not sent on another
 * site's POST) and Secure wherever the browser can keep a Secure cookie: over HTTPS, and on loopback addresses, which
 * browsers treat as secure contexts. A plain-http address elsewhere (a LAN test box) gets it without Secure, or the
 * browser would drop it; run the dashboard behind TLS in production (PUBLIC_URL https://…).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ENVIRONMENT_COOKIE, SESSION_COOKIE } from '../http/session-auth.ts';

/** Absolute lifetime of a session: a working day; sign in again after. */
export const SESSION_TTL_SECONDS = 12 * 3600;
export const LOGIN_COOKIE = 'lp_login';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function secureCookies(request: FastifyRequest): boolean {
  // PUBLIC_URL https: TLS ends at a proxy in front of us even when the request reached us over plain http.
  if (request.server.services.config.publicUrl.startsWith('https:') || request.protocol === 'https') return true;
  return LOOPBACK.has(request.hostname) || request.hostname.endsWith('.localhost');
}

/** Sets a dashboard cookie through @fastify/cookie (registered in the dashboard's scope, src/dashboard/routes.ts). */
export function setCookie(reply: FastifyReply, request: FastifyRequest, name: string, value: string, maxAge: number): void {
  void reply.setCookie(name, value, { path: '/', maxAge, httpOnly: true, sameSite: 'lax', secure: secureCookies(request) });
}

export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, token: string): void {
  setCookie(reply, request, SESSION_COOKIE, token, SESSION_TTL_SECONDS);
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest): void {
  setCookie(reply, request, SESSION_COOKIE, '', 0);
}

export function setEnvironmentCookie(reply: FastifyReply, request: FastifyRequest, environment: string): void {
  setCookie(reply, request, ENVIRONMENT_COOKIE, environment, 365 * 24 * 3600);
}
