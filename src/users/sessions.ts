/**
 * Dashboard sessions: a random token in an HttpOnly cookie, stored as its SHA-256 with the session's CSRF token, so
 * any process verifies any session and a database dump holds no usable cookie.
 */
import { randomToken, sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import { deleteDashboardSession, deleteUserSessions, findSessionUser, insertDashboardSession } from '../sql/dashboard-sessions.ts';
import type { DashboardRole } from '../sql/dashboard-users.ts';

export const SESSION_TOKEN_PATTERN = /^lpses_[A-Za-z0-9_-]{43}$/;

export interface SessionUser {
  userId: string;
  organizationId: string;
  email: string;
  role: DashboardRole;
  csrfToken: string;
}

export async function startSession(db: Queryable, userId: string, ttlSeconds: number): Promise<{ token: string; csrfToken: string }> {
  const token = randomToken('lpses_');
  const csrfToken = randomToken('', 24);
  await insertDashboardSession(db, { tokenSha256: sha256(token), userId, csrfToken, ttlSeconds });
  return { token, csrfToken };
}

/** The signed-in user of a session cookie; null when the token is malformed, unknown or expired. */
export async function sessionUser(db: Queryable, token: string): Promise<SessionUser | null> {
  if (!SESSION_TOKEN_PATTERN.test(token)) return null;
  const row = await findSessionUser(db, sha256(token));
  if (row === null) return null;
  return { userId: row.user_id, organizationId: row.organization_id, email: row.email, role: row.role, csrfToken: row.csrf_token };
}

export async function endSession(db: Queryable, token: string): Promise<void> {
  if (SESSION_TOKEN_PATTERN.test(token)) await deleteDashboardSession(db, sha256(token));
}

export function endEverySession(db: Queryable, userId: string): Promise<number> {
  return deleteUserSessions(db, userId);
}
