/**
 * Start-up step after the migrations: migration 0018 gave every connection its
 * link token's SHA-256 (the lookup key), but sealing needs the encryption key,
 * which SQL does not have. This step seals the link tokens of connections
 * written before 0018, empties their clear column, and moves the update_url of
 * their stored webhook bodies into its sealed slot (src/events/access-token-slot.ts).
 * Idempotent: it only finds rows still in clear, so after the first run it is
 * one index lookup. Several processes starting at once split the rows (SKIP
 * LOCKED); each batch is one transaction, so a crash leaves no half-sealed row.
 */
import type { Cipher } from '../crypto/secrets.ts';
import { withTransaction, type Pool } from '../db/pool.ts';
import { takeUpdateUrl } from '../events/access-token-slot.ts';
import { lockLegacyLinkTokens, lockLegacyUpdateUrls, storeSealedLinkTokens, storeSealedUpdateUrls } from '../sql/legacy-link-tokens.ts';

const BATCH = 500;

/** Seals what is left in clear; returns how many connections it sealed. */
export async function sealLegacyLinkTokens(pool: Pool, cipher: Cipher): Promise<number> {
  let sealed = 0;
  for (;;) {
    const count = await withTransaction(pool, async (db) => {
      const rows = await lockLegacyLinkTokens(db, BATCH);
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      await storeSealedLinkTokens(db, ids, rows.map((r) => cipher.encrypt(r.link_token)));
      const events = (await lockLegacyUpdateUrls(db, ids)).flatMap((e) => {
        const { payload, updateUrl } = takeUpdateUrl(e.payload);
        return updateUrl === null ? [] : [{ id: e.id, payload: JSON.stringify(payload), sealed: cipher.encrypt(updateUrl) }];
      });
      await storeSealedUpdateUrls(db, events.map((e) => e.id), events.map((e) => e.payload), events.map((e) => e.sealed));
      return rows.length;
    });
    sealed += count;
    if (count < BATCH) return sealed;
  }
}
