import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import { sandboxConnection } from '../../test/support/sandbox-connection.ts';
import { dueIncrementalSyncs } from '../sql/due-syncs.ts';
import { setOrganizationSyncDefaults } from './sync-defaults.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const NO_PACING = { budgets: {}, scheduledShare: 1 };

describe("the organisation's default sync configuration", () => {
  it('sets the incremental frequency of connections without their own, and not of those with one', async () => {
    const following = await sandboxConnection(t, 'user_defaults_following');
    const own = await sandboxConnection(t, 'user_defaults_own');
    // Both ready 90 minutes ago, never synced since: due at the service's hourly default.
    await t.db.pool.query(
      `UPDATE connections SET status = 'active', ready_at = clock_timestamp() - interval '90 minutes' WHERE id = ANY($1::uuid[])`,
      [[following.id, own.id]],
    );
    await t.db.pool.query('UPDATE connections SET sync_config = NULL WHERE id = $1', [following.id]);
    await t.db.pool.query(`UPDATE connections SET sync_config = '{"incremental_sync_frequency_minutes": 60}' WHERE id = $1`, [own.id]);
    const due = async () => new Set(await dueIncrementalSyncs(t.db.pool, new Date(), 60, NO_PACING));

    expect((await due()).has(following.id)).toBe(true);
    expect((await due()).has(own.id)).toBe(true);

    await setOrganizationSyncDefaults(t.db.pool, t.org.organization.id, { incremental_sync_frequency_minutes: 120 });
    expect((await due()).has(following.id)).toBe(false);
    expect((await due()).has(own.id)).toBe(true);

    await setOrganizationSyncDefaults(t.db.pool, t.org.organization.id, {});
    expect((await due()).has(following.id)).toBe(true);
  });
});
