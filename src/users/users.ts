/**
 * Dashboard users: invitations and the first admin (one-time sign-in links), password sign-in, roles. An organisation
 * always keeps at least one admin. Accounts are per organisation (docs/dashboard.md, "Invitations"): an email may have
 * one in several, and nothing an organisation does tells it about another's.
 */
import { randomToken, sha256 } from '../crypto/secrets.ts';
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';
import { ServiceError } from '../errors/catalogue.ts';
import {
  countDashboardAdmins,
  deleteDashboardUser,
  findDashboardUser,
  findDashboardUsersByEmail,
  markDashboardOidcAccepted,
  insertDashboardUser,
  lockDashboardUsers,
  markDashboardSignIn,
  setDashboardUserPassword,
  setDashboardUserRole,
  anyDashboardUser,
  lockFirstAdmin,
  type DashboardRole,
  type DashboardUserRow,
} from '../sql/dashboard-users.ts';
import { listOrganizationRows } from '../sql/organizations.ts';
import { consumeSignInLink, insertSignInLink, signInLinkUsable, type SignInLinkPurpose } from '../sql/dashboard-sign-in-links.ts';
import { deleteUserSessions } from '../sql/dashboard-sessions.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';

export const SIGN_IN_LINK_PATTERN = /^lplnk_[A-Za-z0-9_-]{43}$/;
/** A sign-in link is good for a week: long enough to pass on, short enough not to linger in an inbox. */
export const SIGN_IN_LINK_TTL_SECONDS = 7 * 24 * 3600;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;

/** Where a one-time sign-in link token is used. */
export function signInUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/dashboard/sign-in/${token}`;
}

export interface DashboardUser {
  id: string;
  email: string;
  role: DashboardRole;
  has_password: boolean;
  created_at: string;
  last_sign_in_at: string | null;
}

export function userView(row: DashboardUserRow): DashboardUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    has_password: row.password_hash !== null,
    created_at: row.created_at.toISOString(),
    last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null,
  };
}

function invalid(field: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', message, { source: 'service', field, location: 'body' });
}

export function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed)) throw invalid('email', '`email` must be an email address such as ada@example.com.');
  return trimmed;
}

async function newSignInLink(db: Queryable, userId: string, purpose: SignInLinkPurpose): Promise<string> {
  const token = randomToken('lplnk_');
  await insertSignInLink(db, { tokenSha256: sha256(token), userId, purpose, ttlSeconds: SIGN_IN_LINK_TTL_SECONDS });
  return token;
}

/** Invites a user (or, with `purpose: 'first_admin'`, the organisation's first admin); returns the one-time link token. */
export async function inviteUser(
  pool: Pool,
  organizationId: string,
  input: { email: string; role: DashboardRole },
  purpose: SignInLinkPurpose = 'invitation',
): Promise<{ user: DashboardUser; signInToken: string }> {
  const email = checkEmail(input.email);
  return withTransaction(pool, async (db) => {
    const row = await insertDashboardUser(db, { organizationId, email, role: input.role, passwordHash: null });
    if (row === null) {
      // Only this organisation's own accounts conflict: the admin sees them on the Users page anyway.
      throw new ServiceError('DUPLICATE_VALUE_CONFLICT', `${email} already has a dashboard account in this organisation.`, {
        source: 'service',
        field: 'email',
        location: 'body',
      });
    }
    return { user: userView(row), signInToken: await newSignInLink(db, row.id, purpose) };
  });
}

/**
 * An installation without any dashboard user (one set up before the dashboard existed, or whose first start could not
 * make one) gets a first admin in its oldest organisation, once: the caller prints the link. Null when a user exists.
 */
export async function ensureFirstAdmin(pool: Pool, email: string): Promise<{ organizationId: string; signInToken: string } | null> {
  return withTransaction(pool, async (db) => {
    await lockFirstAdmin(db);
    if (await anyDashboardUser(db)) return null;
    const oldest = (await listOrganizationRows(db))[0];
    if (oldest === undefined) return null;
    const row = await insertDashboardUser(db, { organizationId: oldest.id, email: checkEmail(email), role: 'admin', passwordHash: null });
    if (row === null) return null;
    return { organizationId: oldest.id, signInToken: await newSignInLink(db, row.id, 'first_admin') };
  });
}

/** The email a usable sign-in link is for, or null (unknown, used or expired). */
export async function signInLinkTarget(db: Queryable, token: string): Promise<{ email: string; purpose: SignInLinkPurpose } | null> {
  return SIGN_IN_LINK_PATTERN.test(token) ? signInLinkUsable(db, sha256(token)) : null;
}

/** Uses a sign-in link once and sets the user's password; null when the link is no longer usable. */
export async function acceptSignInLink(pool: Pool, token: string, password: string): Promise<DashboardUserRow | null> {
  const problem = passwordProblem(password);
  if (problem !== null) throw invalid('password', problem);
  if (!SIGN_IN_LINK_PATTERN.test(token)) return null;
  const passwordHash = await hashPassword(password);
  return withTransaction(pool, async (db) => {
    const user = await consumeSignInLink(db, sha256(token));
    if (user === null) return null;
    await setDashboardUserPassword(db, user.id, passwordHash);
    await markDashboardSignIn(db, user.id);
    return user;
  });
}

/**
 * The accounts of this email whose password this is (one per organisation at most; several when the person chose the
 * same password in several), or only the chosen organisation's. Every candidate's hash is checked, and an unknown email
 * costs one check, as a wrong password does.
 */
export async function checkPassword(
  db: Queryable,
  email: string,
  password: string,
  organizationId: string | null = null,
): Promise<DashboardUserRow[]> {
  const accounts = password.length > 256 ? [] : await findDashboardUsersByEmail(db, email.trim());
  const candidates = accounts.filter((account) => organizationId === null || account.organization_id === organizationId);
  if (candidates.length === 0) {
    await verifyPassword(null, password);
    return [];
  }
  const matching: DashboardUserRow[] = [];
  for (const account of candidates) {
    if (await verifyPassword(account.password_hash, password)) matching.push(account);
  }
  return matching;
}

/** Records a sign-in of the account (password, link or OpenID Connect). */
export async function markSignedIn(db: Queryable, userId: string): Promise<void> {
  await markDashboardSignIn(db, userId);
}

/**
 * The accounts an identity provider's verified email reaches (OpenID Connect): only those whose invitation the person
 * accepted at the provider. An organisation that invited the address (and perhaps used the link itself) reaches
 * nobody's sign-in that way.
 */
export async function accountsForVerifiedEmail(db: Queryable, email: string): Promise<DashboardUserRow[]> {
  return (await findDashboardUsersByEmail(db, email)).filter((account) => account.oidc_accepted_at !== null);
}

/**
 * Accepts an invitation through the identity provider: the link must still be usable and be for this verified email.
 * Uses the link once, and from then on the provider's sign-ins reach the account. Null when the link is not usable.
 */
export async function acceptSignInLinkThroughProvider(
  pool: Pool,
  linkSha256: Buffer,
  verifiedEmail: string,
): Promise<DashboardUserRow | 'another email' | null> {
  return withTransaction(pool, async (db) => {
    const target = await signInLinkUsable(db, linkSha256);
    if (target === null) return null;
    if (target.email.toLowerCase() !== verifiedEmail.toLowerCase()) return 'another email';
    const user = await consumeSignInLink(db, linkSha256);
    if (user === null) return null;
    await markDashboardOidcAccepted(db, user.id);
    await markDashboardSignIn(db, user.id);
    return user;
  });
}

function notFound(userId: string): ServiceError {
  return new ServiceError('RESOURCE_NOT_FOUND', `No dashboard user ${userId} in this organisation.`, { source: 'service' });
}

function lastAdmin(): ServiceError {
  return new ServiceError('VALIDATION_ERROR', 'An organisation keeps at least one admin: make another user admin first.', {
    source: 'service',
    field: 'role',
    location: 'body',
  });
}

export async function changeRole(pool: Pool, organizationId: string, userId: string, role: DashboardRole): Promise<DashboardUser> {
  return withTransaction(pool, async (db) => {
    await lockDashboardUsers(db, organizationId);
    const before = await findDashboardUser(db, organizationId, userId);
    if (before === null) throw notFound(userId);
    // The same role again changes nothing: no session ends (an admin re-saving their own role stays signed in).
    if (before.role === role) return userView(before);
    if (before.role === 'admin' && role !== 'admin' && (await countDashboardAdmins(db, organizationId)) <= 1) throw lastAdmin();
    const after = await setDashboardUserRole(db, organizationId, userId, role);
    if (after === null) throw notFound(userId);
    // A changed role takes effect at once: the user's sessions end and they sign in again with the new one.
    await deleteUserSessions(db, userId);
    return userView(after);
  });
}

export async function removeUser(pool: Pool, organizationId: string, userId: string): Promise<void> {
  await withTransaction(pool, async (db) => {
    await lockDashboardUsers(db, organizationId);
    const user = await findDashboardUser(db, organizationId, userId);
    if (user === null) throw notFound(userId);
    if (user.role === 'admin' && (await countDashboardAdmins(db, organizationId)) <= 1) throw lastAdmin();
    await deleteDashboardUser(db, organizationId, userId);
  });
}
