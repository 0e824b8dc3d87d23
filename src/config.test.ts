import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.rateLimit).toEqual({ limit: 500, windowSeconds: 10 });
  });

  it('reports every bad value at once', () => {
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'not a url', REDIS_URL: 'http://x', ADMIN_TOKEN: 'short', LOG_LEVEL: 'chatty' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(5);
    }
  });

  it('requires ENCRYPTION_KEY in production and accepts hex or base64 keys', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/ENCRYPTION_KEY is required/);
    expect(loadConfig({ ENCRYPTION_KEY: 'ab'.repeat(32) }).encryptionKey?.length).toBe(32);
    expect(loadConfig({ ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).encryptionKey?.length).toBe(32);
  });
});
