/** Issues (or replaces) what the end user installs for a polled connection: its user name and its password's SHA-256. */
import type { Queryable } from '../db/pool.ts';

export interface PolledEndpoint {
  connectionId: string;
  username: string;
  ownerId: string;
  fileId: string;
}

/** A new password replaces the old one; the user name, owner and file ids stay, so the installed file keeps working. */
export async function savePolledEndpoint(db: Queryable, endpoint: PolledEndpoint, passwordSha256: Buffer): Promise<PolledEndpoint> {
  const { rows } = await db.query<{ username: string; owner_id: string; file_id: string }>(
    `INSERT INTO polled_endpoints (connection_id, username, password_sha256, owner_id, file_id)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (connection_id) DO UPDATE SET password_sha256 = EXCLUDED.password_sha256
     RETURNING username, owner_id, file_id`,
    [endpoint.connectionId, endpoint.username, passwordSha256, endpoint.ownerId, endpoint.fileId],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('polled endpoint not saved');
  return { connectionId: endpoint.connectionId, username: row.username, ownerId: row.owner_id, fileId: row.file_id };
}
