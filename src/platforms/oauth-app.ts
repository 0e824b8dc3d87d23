/**
 * The OAuth app a connection's consent, code exchange and refreshes use: the simulator's for a simulated connection
 * (src/platforms/simulators.ts), else the one its organisation registered for the platform and environment.
 */
import type { ConnectionRecord } from '../connections/types.ts';
import type { Cipher } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import { findOAuthApp } from '../sql/oauth-apps.ts';
import type { OAuthAppCredentials } from './connector.ts';
import { simulatorFor } from './simulators.ts';

export async function connectionOAuthApp(
  db: Queryable,
  cipher: Cipher,
  connection: ConnectionRecord,
  platform: string,
): Promise<OAuthAppCredentials | null> {
  if (connection.simulated) return simulatorFor(platform)?.app ?? null;
  return findOAuthApp(db, cipher, connection, platform);
}
