import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.rateLimit).toEqual({ limit: 500, windowSeconds: 10 });
    expect(config.authFailures).toEqual({ perAddress: 20, perTarget: 100, windowSeconds: 60, webhookRefusalDelayMs: 1000 });
    expect(config.webhookEndpointConcurrency).toBe(8);
  });

  it('reads the failed-authentication throttle and refuses thresholds that would turn it off or make no sense', () => {
    expect(
      loadConfig({ AUTH_FAILURE_LIMIT_PER_ADDRESS: '5', AUTH_FAILURE_LIMIT_PER_TARGET: '50', AUTH_FAILURE_WINDOW_SECONDS: '300' }).authFailures,
    ).toEqual({ perAddress: 5, perTarget: 50, windowSeconds: 300, webhookRefusalDelayMs: 1000 });
    try {
      loadConfig({ AUTH_FAILURE_LIMIT_PER_ADDRESS: '0', AUTH_FAILURE_LIMIT_PER_TARGET: '1.5', AUTH_FAILURE_WINDOW_SECONDS: 'soon' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'AUTH_FAILURE_LIMIT_PER_ADDRESS=0 must be a positive integer',
        'AUTH_FAILURE_LIMIT_PER_TARGET=1.5 must be a positive integer',
        'AUTH_FAILURE_WINDOW_SECONDS=soon must be a positive integer',
      ]);
    }
  });

  it('reads WEBHOOK_ENDPOINT_CONCURRENCY, a positive integer', () => {
    expect(loadConfig({ WEBHOOK_ENDPOINT_CONCURRENCY: '3' }).webhookEndpointConcurrency).toBe(3);
    for (const bad of ['0', '-1', '2.5', 'many']) {
      expect(() => loadConfig({ WEBHOOK_ENDPOINT_CONCURRENCY: bad }), bad).toThrow(/WEBHOOK_ENDPOINT_CONCURRENCY/);
    }
  });

  it('reads SANDBOX_ENABLED, on by default, and refuses anything but true/false/1/0 by name', () => {
    expect(loadConfig({}).sandboxEnabled).toBe(true);
    expect(loadConfig({ SANDBOX_ENABLED: 'false' }).sandboxEnabled).toBe(false);
    expect(loadConfig({ SANDBOX_ENABLED: '0' }).sandboxEnabled).toBe(false);
    expect(loadConfig({ SANDBOX_ENABLED: 'true' }).sandboxEnabled).toBe(true);
    for (const bad of ['off', 'no', 'FALSE', 'yes']) {
      expect(() => loadConfig({ SANDBOX_ENABLED: bad }), bad).toThrow(`SANDBOX_ENABLED=${bad} must be true or false`);
    }
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

  it('reads ENCRYPTION_KEY_PREVIOUS as comma-separated keys, hex or base64, and names a bad one by position', () => {
    expect(loadConfig({}).encryptionKeysPrevious).toEqual([]);
    const previous = loadConfig({
      ENCRYPTION_KEY_PREVIOUS: ` ${'ab'.repeat(32)} ,${Buffer.alloc(32, 7).toString('base64')},`,
    }).encryptionKeysPrevious;
    expect(previous).toEqual([Buffer.from('ab'.repeat(32), 'hex'), Buffer.alloc(32, 7)]);
    expect(() => loadConfig({ ENCRYPTION_KEY_PREVIOUS: `${'ab'.repeat(32)},short` })).toThrow(/ENCRYPTION_KEY_PREVIOUS: key 2 of 2 must be 32 bytes/);
  });

  it('bounds client connections: whole-request and header timeouts, and socket caps below the open-file limit', () => {
    expect(loadConfig({}, 20_000).http).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 10_000,
      maxConnectionsPerClient: 256,
    });
    // Half the limit by default, so the pool, pg-boss and webhook sockets always have descriptors left.
    expect(loadConfig({}, 1024).http.maxConnections).toBe(512);
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '5', HTTP_MAX_CONNECTIONS_PER_CLIENT: '0' }, 1024).http).toMatchObject({
      requestTimeoutMs: 5000,
      headersTimeoutMs: 5000,
      maxConnectionsPerClient: 0,
    });
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: '1000' }, 1024)).toThrow(
      /HTTP_MAX_CONNECTIONS=1000 leaves too few file descriptors.*at most 768/,
    );
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '40' }, 1024)).toThrow(/must not exceed HTTP_REQUEST_TIMEOUT_SECONDS=30/);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '0', HTTP_MAX_CONNECTIONS_PER_CLIENT: '-1' }, 1024)).toThrow(ConfigError);
  });
});

describe('database pools and per-organisation limits', () => {
  it('defaults: separate pools, a tenth of the API pool (at least 2) per organisation, bounded reads', () => {
    const config = loadConfig({});
    expect(config.databasePools).toEqual({ api: 20, worker: 10, webhooks: 5 });
    expect(config.databaseAcquireTimeoutMs).toBe(5000);
    expect(config.organizationDatabase).toEqual({ concurrency: 2, waitMs: 10_000, costlyConcurrency: 1, largeAnswerBytesPerSecond: 8 * 2 ** 20 });
    expect(config.readLimits).toEqual({ statementTimeoutMs: 5000, pagePlatformDataBytes: 8 * 2 ** 20 });
    expect(loadConfig({ DATABASE_POOL_API: '8' }).organizationDatabase.concurrency).toBe(2);
    expect(loadConfig({ DATABASE_POOL_API: '50' }).organizationDatabase.concurrency).toBe(5);
    expect(loadConfig({ DATABASE_POOL_API: '1' }).organizationDatabase.concurrency).toBe(1);
  });

  it('takes every value from the environment', () => {
    const config = loadConfig({
      DATABASE_POOL_API: '30',
      DATABASE_POOL_WORKER: '6',
      DATABASE_POOL_WEBHOOKS: '3',
      DATABASE_ACQUIRE_TIMEOUT_MS: '800',
      ORG_DATABASE_CONCURRENCY: '4',
      ORG_DATABASE_WAIT_MS: '0',
      ORG_COSTLY_READ_CONCURRENCY: '3',
      ORG_LARGE_ANSWER_BYTES_PER_SECOND: '1000',
      READ_STATEMENT_TIMEOUT_MS: '1500',
      LIST_PLATFORM_DATA_MAX_BYTES: '65536',
    });
    expect(config.databasePools).toEqual({ api: 30, worker: 6, webhooks: 3 });
    expect(config.databaseAcquireTimeoutMs).toBe(800);
    expect(config.organizationDatabase).toEqual({ concurrency: 4, waitMs: 0, costlyConcurrency: 3, largeAnswerBytesPerSecond: 1000 });
    expect(config.readLimits).toEqual({ statementTimeoutMs: 1500, pagePlatformDataBytes: 65536 });
  });

  it('refuses sizes that are not positive integers, and a per-organisation cap above the API pool', () => {
    try {
      loadConfig({
        DATABASE_POOL_API: '0',
        DATABASE_POOL_WORKER: 'ten',
        DATABASE_POOL_WEBHOOKS: '-1',
        READ_STATEMENT_TIMEOUT_MS: '1.5',
        LIST_PLATFORM_DATA_MAX_BYTES: '0',
      });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(5);
    }
    expect(() => loadConfig({ DATABASE_POOL_API: '4', ORG_DATABASE_CONCURRENCY: '5' })).toThrow(
      /ORG_DATABASE_CONCURRENCY=5 must not exceed DATABASE_POOL_API=4/,
    );
  });

  it('reads TRUST_PROXY as off, on, a hop count or addresses and ranges, refusing anything else by name', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8,proxy.internal' })).toThrow('TRUST_PROXY has "proxy.internal"');
  });
});
