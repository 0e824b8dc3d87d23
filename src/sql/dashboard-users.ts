/**
 * Dashboard users (migrations 0033, 0038): accounts of one organisation, with a role. An email may have an account in
 * several organisations; each is its own (password, role, sessions).
 */
import type { Queryable } from '../db/pool.ts';

export const DASHBOARD_ROLES = ['admin', 'developer', 'viewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

export interface DashboardUserRow {
  id: string;
  organization_id: string;
  email: string;
  role: DashboardRole;
  password_hash: string | null;
  created_at: Date;
  last_sign_in_at: Date | null;
  /** When the person, signed in at the identity provider with this verified email, accepted the invitation. */
  oidc_accepted_at: Date | null;
}

export const DASHBOARD_USER_COLUMNS = 'id, organization_id, email, role, password_hash, created_at, last_sign_in_at, oidc_accepted_at';
const COLUMNS = DASHBOARD_USER_COLUMNS;

/** Null when the email already has an account in this organisation (another organisation's accounts never conflict). */
export async function insertDashboardUser(
  db: Queryable,
  user: { organizationId: string; email: string; role: DashboardRole; passwordHash: string | null },
): Promise<DashboardUserRow | null> {
  const result = await db.query<DashboardUserRow>(
    `INSERT INTO dashboard_users (organization_id, email, role, password_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, (lower(email))) DO NOTHING RETURNING ${COLUMNS}`,
    [user.organizationId, user.email, user.role, user.passwordHash],
  );
  return result.rows[0] ?? null;
}

/** Every account of the email, oldest first (one per organisation at most). */
export async function findDashboardUsersByEmail(db: Queryable, email: string): Promise<DashboardUserRow[]> {
  const result = await db.query<DashboardUserRow>(`SELECT ${COLUMNS} FROM dashboard_users WHERE lower(email) = lower($1) ORDER BY created_at, id`, [
    email,
  ]);
  return result.rows;
}

/** The person accepted this account's invitation at the identity provider: OpenID Connect sign-ins may reach it. */
export async function markDashboardOidcAccepted(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE dashboard_users SET oidc_accepted_at = coalesce(oidc_accepted_at, now()) WHERE id = $1', [userId]);
}

/** The user only if it belongs to the organisation: another organisation's ids find nothing. */
export async function findDashboardUser(db: Queryable, organizationId: string, userId: string): Promise<DashboardUserRow | null> {
  const result = await db.query<DashboardUserRow>(`SELECT ${COLUMNS} FROM dashboard_users WHERE organization_id = $1 AND id = $2`, [
    organizationId,
    userId,
  ]);
  return result.rows[0] ?? null;
}

export async function listDashboardUsers(db: Queryable, organizationId: string): Promise<DashboardUserRow[]> {
  const result = await db.query<DashboardUserRow>(`SELECT ${COLUMNS} FROM dashboard_users WHERE organization_id = $1 ORDER BY created_at, id`, [
    organizationId,
  ]);
  return result.rows;
}

export async function countDashboardAdmins(db: Queryable, organizationId: string): Promise<number> {
  const result = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dashboard_users WHERE organization_id = $1 AND role = 'admin'`, [
    organizationId,
  ]);
  return result.rows[0]?.n ?? 0;
}

/** Serialises changes to an organisation's users (the last admin cannot be demoted or removed by two requests at once). */
export async function lockDashboardUsers(db: Queryable, organizationId: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('dashboard_users:' || $1::text, 0))`, [organizationId]);
}

export async function setDashboardUserRole(
  db: Queryable,
  organizationId: string,
  userId: string,
  role: DashboardRole,
): Promise<DashboardUserRow | null> {
  const result = await db.query<DashboardUserRow>(
    `UPDATE dashboard_users SET role = $3 WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [organizationId, userId, role],
  );
  return result.rows[0] ?? null;
}

export async function setDashboardUserPassword(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE dashboard_users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
}

export async function markDashboardSignIn(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE dashboard_users SET last_sign_in_at = now() WHERE id = $1', [userId]);
}

export async function deleteDashboardUser(db: Queryable, organizationId: string, userId: string): Promise<boolean> {
  const result = await db.query('DELETE FROM dashboard_users WHERE organization_id = $1 AND id = $2', [organizationId, userId]);
  return (result.rowCount ?? 0) > 0;
}

/** Serialises the start-up check for a first admin (several processes may start at once). */
export async function lockFirstAdmin(db: Queryable): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('dashboard_first_admin', 0))`);
}

/** Whether the installation has any dashboard user at all. */
export async function anyDashboardUser(db: Queryable): Promise<boolean> {
  const result = await db.query('SELECT 1 FROM dashboard_users LIMIT 1');
  return (result.rowCount ?? 0) > 0;
}
