/** A polled connection's endpoint: by the user name a Web Connector presents, or by the connection. */
import type { Queryable } from '../db/pool.ts';
import type { PolledEndpoint } from './save-polled-endpoint.ts';

export interface StoredPolledEndpoint extends PolledEndpoint {
  passwordSha256: Buffer;
  platform: string | null;
  status: string;
  organizationId: string;
}

interface Row {
  connection_id: string;
  username: string;
  owner_id: string;
  file_id: string;
  password_sha256: Buffer;
  platform: string | null;
  status: string;
  organization_id: string;
}

const SELECT = `SELECT e.connection_id, e.username, e.owner_id, e.file_id, e.password_sha256, c.platform, c.status, c.organization_id
                  FROM polled_endpoints e JOIN connections c ON c.id = e.connection_id`;

function endpointOf(row: Row | undefined): StoredPolledEndpoint | null {
  if (row === undefined) return null;
  return {
    connectionId: row.connection_id,
    username: row.username,
    ownerId: row.owner_id,
    fileId: row.file_id,
    passwordSha256: row.password_sha256,
    platform: row.platform,
    status: row.status,
    organizationId: row.organization_id,
  };
}

export async function findPolledEndpointByUsername(db: Queryable, username: string): Promise<StoredPolledEndpoint | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE e.username = $1`, [username]);
  return endpointOf(rows[0]);
}

export async function findPolledEndpointOfConnection(db: Queryable, connectionId: string): Promise<StoredPolledEndpoint | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE e.connection_id = $1`, [connectionId]);
  return endpointOf(rows[0]);
}
