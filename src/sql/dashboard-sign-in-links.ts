/** One-time sign-in links (the first admin's, invitations): SHA-256 of the token, used once. */
import type { Queryable } from '../db/pool.ts';
import type { DashboardUserRow } from './dashboard-users.ts';

export type SignInLinkPurpose = 'first_admin' | 'invitation';

export async function insertSignInLink(
  db: Queryable,
  link: { tokenSha256: Buffer; userId: string; purpose: SignInLinkPurpose; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_sign_in_links (token_sha256, user_id, purpose, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [link.tokenSha256, link.userId, link.purpose, link.ttlSeconds],
  );
}

/** Marks the link used and returns its user; null when unknown, used or expired (a second use finds nothing). */
export async function consumeSignInLink(db: Queryable, tokenSha256: Buffer): Promise<DashboardUserRow | null> {
  const result = await db.query<DashboardUserRow>(
    `WITH used AS (
       UPDATE dashboard_sign_in_links SET used_at = now()
        WHERE token_sha256 = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id
     )
     SELECT u.id, u.organization_id, u.email, u.role, u.password_hash, u.created_at, u.last_sign_in_at, u.oidc_accepted_at
       FROM used JOIN dashboard_users u ON u.id = used.user_id`,
    [tokenSha256],
  );
  return result.rows[0] ?? null;
}

/** Whether the link can still be used (the page that asks for a password before consuming it). */
export async function signInLinkUsable(db: Queryable, tokenSha256: Buffer): Promise<{ email: string; purpose: SignInLinkPurpose } | null> {
  const result = await db.query<{ email: string; purpose: SignInLinkPurpose }>(
    `SELECT u.email, l.purpose FROM dashboard_sign_in_links l JOIN dashboard_users u ON u.id = l.user_id
      WHERE l.token_sha256 = $1 AND l.used_at IS NULL AND l.expires_at > now()`,
    [tokenSha256],
  );
  return result.rows[0] ?? null;
}
