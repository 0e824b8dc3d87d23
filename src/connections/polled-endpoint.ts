/**
 * What the end user installs for a connection to a platform that calls us: a user name (in the .qwc file) and a
 * password, shown once and kept as its SHA-256. Issuing again keeps the user name and the file's ids (the installed file
 * stays valid) and replaces the password.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import type { Connector } from '../platforms/connector.ts';
import { webConnectorFile } from '../platforms/web-connector-file.ts';
import { findPolledEndpointOfConnection } from '../sql/find-polled-endpoint.ts';
import { savePolledEndpoint, type PolledEndpoint } from '../sql/save-polled-endpoint.ts';

/** Where the Web Connector calls (the SOAP endpoint, src/api/web-connector/soap.ts). */
export const WEB_CONNECTOR_PATH = '/web-connector';

export interface IssuedEndpoint extends PolledEndpoint {
  /** Shown to the end user once; never stored. */
  password: string;
}

export async function issuePolledEndpoint(db: Queryable, connectionId: string): Promise<IssuedEndpoint> {
  const password = randomBytes(24).toString('base64url');
  const proposed: PolledEndpoint = {
    connectionId,
    username: `lp-${randomBytes(9).toString('base64url')}`,
    ownerId: randomUUID(),
    fileId: randomUUID(),
  };
  const saved = await savePolledEndpoint(db, proposed, sha256(password));
  return { ...saved, password };
}

/** The .qwc file of a connection that has its endpoint; null when it has none (not linked to such a platform). */
export async function polledConnectionFile(db: Queryable, connector: Connector, connectionId: string, publicUrl: string): Promise<string | null> {
  const endpoint = await findPolledEndpointOfConnection(db, connectionId);
  if (endpoint === null || connector.polled === undefined) return null;
  return webConnectorFile({
    file: connector.polled.file,
    appUrl: `${publicUrl}${WEB_CONNECTOR_PATH}`,
    supportUrl: `${publicUrl}/docs`,
    username: endpoint.username,
    ownerId: endpoint.ownerId,
    fileId: endpoint.fileId,
  });
}
