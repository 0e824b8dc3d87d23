import type { Queryable } from '../db/pool.ts';

/**
 * Replaces the connection's access token, only while it is still the one presented (`presentedSha256`): of two
 * concurrent replacements of one token, one wins (true) and the other finds it gone (false).
 */
export async function replaceAccessToken(
  db: Queryable,
  connectionId: string,
  token: { sha256: Buffer; ciphertext: Buffer },
  presentedSha256: Buffer,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE connections SET access_token_sha256 = $2, access_token_ciphertext = $3, updated_at = clock_timestamp()
      WHERE id = $1 AND access_token_sha256 = $4`,
    [connectionId, token.sha256, token.ciphertext, presentedSha256],
  );
  return result.rowCount === 1;
}
