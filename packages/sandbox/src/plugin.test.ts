/**
 * Each plugin owns its platform: two plugins in one process (as two test apps of one file) each reach their own, and
 * SANDBOX_URL still sends a plugin's connector to the sandbox server it names.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import { createPlatformHttp } from '../../../src/platforms/http.ts';
import { createSandboxConnector } from './index.ts';
import { sandboxPlugin, type SandboxPlugin } from './plugin.ts';
import { startSandboxServer } from './server.ts';
import { testContext, writeContext } from './testkit.ts';

// With an HTTP client, for the calls SANDBOX_URL sends over HTTP.
const ctx = testContext({ basic_username: 'user_plugin_size_60', basic_password: 'pass_good' }, createPlatformHttp());
let db: TestDatabase;
let a: SandboxPlugin;
let b: SandboxPlugin;

beforeAll(async () => {
  db = await createTestDatabase();
  // Told apart by the address of their pages, which a mapping link carries.
  const options = (host: string) => ({ tickIntervalMs: 0, asOf: '2025-06-15', publicUrl: `http://${host}.sandbox.test` });
  a = sandboxPlugin({ pool: db.pool, options: options('a'), simulators: [] });
  b = sandboxPlugin({ pool: db.pool, options: options('b'), simulators: [] });
});
afterAll(async () => {
  await db.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A mapping link of the account's first bank feed, through the plugin's connector. */
async function mappingLink(plugin: SandboxPlugin): Promise<string> {
  const { connector } = plugin;
  const feeds = await connector.objects.bank_feed_account?.handler.read(ctx, { since: null, window: null, pageToken: null });
  const feed = feeds?.records[0];
  const link = connector.actions?.bankFeedMappingLink;
  if (feed === undefined || link === undefined) throw new Error('no bank feed to link');
  return (await link(writeContext(ctx, 'plugin-test'), feed.platformId)).url;
}

describe('sandboxPlugin', () => {
  it("binds its connector to its own platform, not another plugin's", async () => {
    vi.stubEnv('SANDBOX_URL', '');
    expect(await mappingLink(a)).toMatch(/^http:\/\/a\.sandbox\.test\/sandbox\/bank-feeds\/link\//);
    expect(await mappingLink(b)).toMatch(/^http:\/\/b\.sandbox\.test\/sandbox\/bank-feeds\/link\//);
  });

  it('calls the sandbox server SANDBOX_URL points at instead', async () => {
    const server = await startSandboxServer(b.platform);
    try {
      vi.stubEnv('SANDBOX_URL', server.url);
      expect(await mappingLink(a)).toMatch(/^http:\/\/b\.sandbox\.test\//);
    } finally {
      await server.close();
    }
  });

  it('leaves a connector made without a platform to SANDBOX_URL alone', async () => {
    vi.stubEnv('SANDBOX_URL', '');
    await expect(createSandboxConnector().identify(ctx)).rejects.toThrow(/has no platform in this process/);
  });
});
