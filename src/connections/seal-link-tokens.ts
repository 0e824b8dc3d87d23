/**
 * Start-up step after the migrations: migration 0018 gave every connection its
 * link token's SHA-256 (the lookup key), but sealing needs the encryption key,
 * which SQL does not have. This step seals the link tokens of connections
 * written before 0018, empties their clear column, and moves the update_url of
 * their stored webhook bodies into its sealed slot (src/events/access-token-slot.ts).
 * Idempotent: it only finds rows still in clear, so after the first run it is
 * one probe. Several processes starting at once: one seals while the others
 * wait for it (a session advisory lock), so no process serves while a
 * connection is still unsealed (reading one would fail). Each batch is one
 * transaction, so a crash leaves no half-sealed row.
 */
import type { Cipher } from '../crypto/secrets.ts';
import type { Pool, PoolClient } from '../db/pool.ts';
import { takeUpdateUrl } from '../events/access-token-slot.ts';
import {
  anyLegacyLinkToken,
  lockLegacyLinkTokens,
  lockLegacyLinkTokenSealing,
  lockLegacyUpdateUrls,
  storeSealedLinkTokens,
  storeSealedUpdateUrls,
  unlockLegacyLinkTokenSealing,
} from '../sql/legacy-link-tokens.ts';

const BATCH = 500;

/** Seals what is left in clear; returns how many connections this process sealed. */
export async function sealLegacyLinkTokens(pool: Pool, cipher: Cipher): Promise<number> {
  if (!(await anyLegacyLinkToken(pool))) return 0;
  const client = await pool.connect();
  try {
    await lockLegacyLinkTokenSealing(client);
    try {
      let sealed = 0;
      for (;;) {
        const count = await sealBatch(client, cipher);
        sealed += count;
        if (count < BATCH) return sealed;
      }
    } finally {
      await unlockLegacyLinkTokenSealing(client);
    }
  } finally {
    client.release();
  }
}

async function sealBatch(db: PoolClient, cipher: Cipher): Promise<number> {
  await db.query('BEGIN');
  try {
    const rows = await lockLegacyLinkTokens(db, BATCH);
    const ids = rows.map((r) => r.id);
    if (rows.length > 0) {
      await storeSealedLinkTokens(
        db,
        ids,
        rows.map((r) => cipher.encrypt(r.link_token)),
      );
      const events = (await lockLegacyUpdateUrls(db, ids)).flatMap((e) => {
        const { payload, updateUrl } = takeUpdateUrl(e.payload);
        return updateUrl === null ? [] : [{ id: e.id, payload: JSON.stringify(payload), sealed: cipher.encrypt(updateUrl) }];
      });
      await storeSealedUpdateUrls(
        db,
        events.map((e) => e.id),
        events.map((e) => e.payload),
        events.map((e) => e.sealed),
      );
    }
    await db.query('COMMIT');
    return rows.length;
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
