/** Dashboard sessions: the cookie's SHA-256, never the cookie itself. */
import type { Queryable } from '../db/pool.ts';
import type { DashboardRole } from './dashboard-users.ts';

export interface SessionUserRow {
  user_id: string;
  organization_id: string;
  email: string;
  role: DashboardRole;
  csrf_token: string;
  expires_at: Date;
}

export async function insertDashboardSession(
  db: Queryable,
  session: { tokenSha256: Buffer; userId: string; csrfToken: string; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_sessions (token_sha256, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [session.tokenSha256, session.userId, session.csrfToken, session.ttlSeconds],
  );
}

/** The session's user, or null when the session is unknown or expired. */
export async function findSessionUser(db: Queryable, tokenSha256: Buffer): Promise<SessionUserRow | null> {
  const result = await db.query<SessionUserRow>(
    `SELECT u.id AS user_id, u.organization_id, u.email, u.role, s.csrf_token, s.expires_at
       FROM dashboard_sessions s JOIN dashboard_users u ON u.id = s.user_id
      WHERE s.token_sha256 = $1 AND s.expires_at > now()`,
    [tokenSha256],
  );
  return result.rows[0] ?? null;
}

export async function deleteDashboardSession(db: Queryable, tokenSha256: Buffer): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE token_sha256 = $1', [tokenSha256]);
}

/** Signs the user out everywhere; returns how many sessions ended. */
export async function deleteUserSessions(db: Queryable, userId: string): Promise<number> {
  const result = await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [userId]);
  return result.rowCount ?? 0;
}

export async function deleteExpiredDashboardSessions(db: Queryable): Promise<number> {
  const result = await db.query('DELETE FROM dashboard_sessions WHERE expires_at <= now()');
  return result.rowCount ?? 0;
}
