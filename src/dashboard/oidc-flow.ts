/**
 * The OpenID Connect sign-in, authorization code flow with PKCE (S256), state and nonce. The state row keeps the
 * SHA-256 of the `state` with the code verifier and the nonce, for 10 minutes, used once. Where to go afterwards
 * (`next`) travels inside the state itself: the stored hash covers it, so it cannot be changed on the way. Only an
 * existing dashboard account signs in, and only one whose invitation the person accepted at the provider (from the
 * invitation link's "Accept with …"): invitations make the accounts, the provider only proves who they are, and an
 * organisation that invites an address first does not get that person's sign-ins (docs/dashboard.md, "Invitations").
 */
import { createHash, randomBytes } from 'node:crypto';
import type { OidcConfig } from '../config.ts';
import { sha256 } from '../crypto/secrets.ts';
import type { Pool } from '../db/pool.ts';
import { consumeOidcState, deleteExpiredOidcStates, insertOidcState } from '../sql/dashboard-oidc-states.ts';
import type { DashboardUserRow } from '../sql/dashboard-users.ts';
import { signInLinkUsable } from '../sql/dashboard-sign-in-links.ts';
import { acceptSignInLinkThroughProvider, accountsForVerifiedEmail, markSignedIn, SIGN_IN_LINK_PATTERN } from '../users/users.ts';
import { discover, exchangeAndVerify, OidcRefusal } from './oidc-provider.ts';
import { safeNext } from './sign-in.ts';

export const OIDC_STATE_TTL_SECONDS = 10 * 60;
/** 43 random base64url characters, a dot, then the base64url of `next`. */
const STATE_PATTERN = /^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{0,2800}$/;
/** A longer `next` (in UTF-8 bytes) goes to /dashboard instead: the state travels in a URL and a cookie. */
const MAX_NEXT_BYTES = 2000;

export function oidcRedirectUri(publicUrl: string): string {
  return `${publicUrl}/dashboard/oidc/callback`;
}

function random(): string {
  return randomBytes(32).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function unusableInvitation(): OidcRefusal {
  return new OidcRefusal(
    410,
    'This invitation cannot be used',
    'It was used already, has expired, or was never issued. Ask an admin of your organisation for a new invitation.',
  );
}

/** What a sign-in is for, besides signing in: accepting an invitation (its link's token), or one chosen organisation. */
export interface OidcPurpose {
  invitation?: string;
  organizationId?: string;
}

/** Starts a sign-in: stores the state and returns the provider's authorization URL, and the state for the browser's cookie. */
export async function beginOidcSignIn(
  pool: Pool,
  config: OidcConfig,
  publicUrl: string,
  next: string,
  purpose: OidcPurpose = {},
): Promise<{ authorizationUrl: string; state: string }> {
  // The invitation's token stays here: only its hash is stored, and nothing of it goes to the provider.
  const linkSha256 = purpose.invitation === undefined ? null : sha256(purpose.invitation);
  if (
    purpose.invitation !== undefined &&
    (!SIGN_IN_LINK_PATTERN.test(purpose.invitation) || (await signInLinkUsable(pool, linkSha256 ?? Buffer.alloc(0))) === null)
  ) {
    throw unusableInvitation();
  }
  const organizationId = purpose.organizationId !== undefined && UUID.test(purpose.organizationId) ? purpose.organizationId : null;
  const metadata = await discover(config);
  const target = safeNext(Buffer.byteLength(next) > MAX_NEXT_BYTES ? '/dashboard' : next);
  const state = `${random()}.${Buffer.from(target).toString('base64url')}`;
  const codeVerifier = random();
  const nonce = random();
  await deleteExpiredOidcStates(pool);
  await insertOidcState(pool, {
    stateSha256: sha256(state),
    codeVerifier,
    nonce,
    ttlSeconds: OIDC_STATE_TTL_SECONDS,
    signInLinkSha256: linkSha256,
    organizationId,
  });
  const url = new URL(metadata.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', oidcRedirectUri(publicUrl));
  url.searchParams.set('scope', config.scopes);
  url.searchParams.set('state', state);
  url.searchParams.set('nonce', nonce);
  url.searchParams.set('code_challenge', createHash('sha256').update(codeVerifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  return { authorizationUrl: url.toString(), state };
}

function badRequest(title: string, message: string): OidcRefusal {
  return new OidcRefusal(400, title, message);
}

const RESTART = 'Start the sign-in again from the sign-in page.';

/** What the provider said instead of a code (RFC 6749 4.1.2.1), as a page. */
function providerError(config: OidcConfig, error: string, description: string | null): OidcRefusal {
  const said = `${config.buttonLabel} answered ${error}${description === null ? '' : ` (${description})`}.`;
  if (error === 'access_denied')
    return new OidcRefusal(401, 'Sign-in was refused', `${said} The sign-in was cancelled or refused at the identity provider.`);
  return badRequest('The identity provider could not sign you in', `${said} ${RESTART}`);
}

function text(query: Readonly<Record<string, unknown>>, name: string): string | null {
  const value = query[name];
  return typeof value === 'string' && value !== '' ? value.slice(0, 500) : null;
}

/** A finished sign-in: the account to sign in to, or (the person accepted invitations of several) organisations to choose from. */
export type OidcOutcome = { user: DashboardUserRow; next: string } | { choose: DashboardUserRow[]; next: string };

/**
 * Finishes a sign-in at the callback: the state (this browser's, unused, in time), the code exchanged, the ID token
 * verified, a verified email, and the account: the invitation's (accepted now) or the accepted ones of that email.
 * Throws `OidcRefusal` for every refusal.
 */
export async function finishOidcSignIn(
  pool: Pool,
  config: OidcConfig,
  publicUrl: string,
  callback: { query: Readonly<Record<string, unknown>>; browserState: string | null },
): Promise<OidcOutcome> {
  const state = text(callback.query, 'state');
  const wellFormed = state !== null && STATE_PATTERN.test(state);
  const error = text(callback.query, 'error');
  if (error !== null) {
    // The state is spent either way: a refused sign-in cannot be finished later.
    if (wellFormed) await consumeOidcState(pool, sha256(state));
    throw providerError(config, error, text(callback.query, 'error_description'));
  }
  if (!wellFormed) throw badRequest('This sign-in cannot be finished', `The answer from the identity provider has no valid state. ${RESTART}`);
  // The state must be the one this browser started with: otherwise someone else's sign-in could be finished here.
  if (callback.browserState !== state) {
    throw badRequest('This sign-in cannot be finished', `It was not started in this browser, or took longer than 10 minutes. ${RESTART}`);
  }
  const stored = await consumeOidcState(pool, sha256(state));
  if (stored === null) throw badRequest('This sign-in cannot be finished', `It was finished already or took longer than 10 minutes. ${RESTART}`);
  const code = text(callback.query, 'code');
  if (code === null) throw badRequest('This sign-in cannot be finished', `The identity provider sent no authorization code. ${RESTART}`);

  const claims = await exchangeAndVerify(config, {
    code,
    state,
    iss: text(callback.query, 'iss'),
    codeVerifier: stored.code_verifier,
    nonce: stored.nonce,
    redirectUri: oidcRedirectUri(publicUrl),
  });
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (email === '') {
    throw new OidcRefusal(
      401,
      'The sign-in was not accepted',
      `${config.buttonLabel} did not say your email address: the email scope (OIDC_SCOPES) must be granted.`,
    );
  }
  // Only an address the provider says it verified: a provider that leaves the claim out may let users type any email,
  // an admin's included. Some providers send the flag as a string.
  if (claims.email_verified !== true && claims.email_verified !== 'true') {
    throw new OidcRefusal(
      401,
      'The sign-in was not accepted',
      `${config.buttonLabel} has not verified the email address ${email}: verify it there first.`,
    );
  }
  const next = safeNext(Buffer.from(state.slice(state.indexOf('.') + 1), 'base64url').toString('utf8'));
  if (stored.sign_in_link_sha256 !== null) {
    const accepted = await acceptSignInLinkThroughProvider(pool, stored.sign_in_link_sha256, email);
    if (accepted === null) throw unusableInvitation();
    if (accepted === 'another email') {
      throw new OidcRefusal(
        403,
        'This invitation is for someone else',
        `${config.buttonLabel} says you are ${email}, and this invitation is for another address. Sign in there as the person invited, or ask for an invitation for ${email}.`,
      );
    }
    return { user: accepted, next };
  }
  const accounts = (await accountsForVerifiedEmail(pool, email)).filter(
    (account) => stored.organization_id === null || account.organization_id === stored.organization_id,
  );
  const [only] = accounts;
  if (only === undefined) {
    throw new OidcRefusal(
      403,
      'No dashboard account',
      `No dashboard account for ${email} signs in through ${config.buttonLabel} yet: open your invitation link and choose "Accept with ${config.buttonLabel}", or ask an admin of your organisation to invite you.`,
    );
  }
  if (accounts.length > 1) return { choose: accounts, next };
  await markSignedIn(pool, only.id);
  return { user: only, next };
}
