/**
 * What domain code may use (syncs, writes, webhook delivery, maintenance): the process's configuration,
 * database pool, cipher, job queue, log and file-URL key, built once per process (src/runtime.ts). Infrastructure only,
 * so a domain module never imports the request layer's Services (src/services.ts), which extends this.
 */
import type { Config } from './config.ts';
import type { KeyRing } from './crypto/secrets.ts';
import type { Pool } from './db/pool.ts';
import type { Logger } from './log/logger.ts';
import type { JobSender } from './queue/sender.ts';

export interface CoreServices {
  config: Config;
  pool: Pool;
  /** Seals with ENCRYPTION_KEY, opens with it or ENCRYPTION_KEY_PREVIOUS (src/crypto/secrets.ts). */
  cipher: KeyRing;
  jobs: JobSender;
  /** The process's structured log (src/log/logger.ts); jobs add their ids with withIds. */
  log: Logger;
  /** Signs file download URLs (derived from the encryption key, so every process agrees). */
  urlSigningKey: Buffer;
  /** Accepted for file URLs too: those of ENCRYPTION_KEY_PREVIOUS's keys (a process of a rotation under way signed with one). */
  previousUrlSigningKeys: readonly Buffer[];
}
