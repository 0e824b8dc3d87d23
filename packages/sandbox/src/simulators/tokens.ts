/**
 * The simulators' OAuth tokens in sandbox_platform.simulator_tokens (migration 0003): issued as random strings, kept
 * by SHA-256, codes and refresh tokens spent by one UPDATE so that exactly one caller wins a race between processes.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../../../src/db/pool.ts';

export type TokenKind = 'code' | 'access' | 'refresh' | 'link';

export interface IssuedGrant {
  platform: string;
  accountKey: string;
  clientId: string;
  scope: string;
  redirectUri: string | null;
}

const sha256 = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new token of `kind`, valid for `seconds`. */
export async function issueToken(db: Queryable, kind: TokenKind, grant: IssuedGrant, seconds: number): Promise<string> {
  const token = `sim_${kind}_${randomBytes(24).toString('base64url')}`;
  await db.query(
    `INSERT INTO sandbox_platform.simulator_tokens (token_sha256, kind, platform, account_key, client_id, redirect_uri, scope, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp() + make_interval(secs => $8))`,
    [sha256(token), kind, grant.platform, grant.accountKey, grant.clientId, grant.redirectUri, grant.scope, seconds],
  );
  return token;
}

interface GrantRow {
  account_key: string;
  client_id: string;
  redirect_uri: string | null;
  scope: string;
}

const toGrant = (platform: string, row: GrantRow): IssuedGrant => ({
  platform,
  accountKey: row.account_key,
  clientId: row.client_id,
  redirectUri: row.redirect_uri,
  scope: row.scope,
});

/** Spends a code or refresh token of this platform: its grant the first time, null when unknown, expired or spent. */
export async function spendToken(db: Queryable, kind: 'code' | 'refresh', platform: string, token: string): Promise<IssuedGrant | null> {
  const result = await db.query<GrantRow>(
    `UPDATE sandbox_platform.simulator_tokens SET used_at = clock_timestamp()
      WHERE token_sha256 = $1 AND kind = $2 AND platform = $3 AND used_at IS NULL AND expires_at > clock_timestamp()
      RETURNING account_key, client_id, redirect_uri, scope`,
    [sha256(token), kind, platform],
  );
  const row = result.rows[0];
  return row === undefined ? null : toGrant(platform, row);
}

/** The grant behind a live access (or link) token of this platform, or null. */
export async function accessGrant(db: Queryable, platform: string, token: string, kind: 'access' | 'link' = 'access'): Promise<IssuedGrant | null> {
  const result = await db.query<GrantRow>(
    `SELECT account_key, client_id, redirect_uri, scope FROM sandbox_platform.simulator_tokens
      WHERE token_sha256 = $1 AND kind = $3 AND platform = $2 AND expires_at > clock_timestamp()`,
    [sha256(token), platform, kind],
  );
  const row = result.rows[0];
  return row === undefined ? null : toGrant(platform, row);
}

/** Forgets tokens that expired over a day ago (each token endpoint call does it, so the table stays small). */
export async function forgetExpiredTokens(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM sandbox_platform.simulator_tokens WHERE expires_at < clock_timestamp() - interval '1 day'`);
}
