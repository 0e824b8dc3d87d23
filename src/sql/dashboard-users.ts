/** Dashboard users (migration 0033): people of one organisation, with a role. */
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
}

const COLUMNS = 'id, organization_id, email, role, password_hash, created_at, last_sign_in_at';

/** Null when the email already has an account (in any organisation). */
export async function insertDashboardUser(
  db: Queryable,
  user: { organizationId: string; email: string; role: DashboardRole; passwordHash: string | null },
): Promise<DashboardUserRow | null> {
  const result = await db.query<DashboardUserRow>(
    `INSERT INTO dashboard_users (organization_id, email, role, password_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT ((lower(email))) DO NOTHING RETURNING ${COLUMNS}`,
    [user.organizationId, user.email, user.role, user.passwordHash],
  );
  return result.rows[0] ?? null;
}

export async function findDashboardUserByEmail(db: Queryable, email: string): Promise<DashboardUserRow | null> {
  const result = await db.query<DashboardUserRow>(`SELECT ${COLUMNS} FROM dashboard_users WHERE lower(email) = lower($1)`, [email]);
  return result.rows[0] ?? null;
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
