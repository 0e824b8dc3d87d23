import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors/catalogue.ts';
import type { Connector, ObjectCapabilities, ObjectHandler } from './connector.ts';
import { createConnectorRegistry, requireCapability, validateConnector } from './registry.ts';

const readOnly: ObjectCapabilities = {
  read: true,
  incremental: 'cursor',
  deletions: 'reported',
  filter: true,
  fetchByPlatformId: true,
  create: false,
  update: false,
  delete: false,
};

const handler: ObjectHandler = {
  read: () => Promise.resolve({ records: [], nextPageToken: null }),
  map: (record) => ({ name: record.platformId }),
};

const writer: ObjectHandler = {
  ...handler,
  create: () => Promise.resolve({ platformId: '1', raw: {} }),
};

function testConnector(overrides: Partial<Connector> = {}): Connector {
  return {
    id: 'TESTPLATFORM',
    name: 'Test platform',
    kind: 'accounting',
    auth: { type: 'credentials', fields: [{ field: 'api_key', label: 'API key', required: true, secret: true }] },
    identify: () => Promise.resolve({ storeUniqueId: 'acct-1', storeName: 'Acme' }),
    objects: {
      account: { capabilities: readOnly, handler },
      vendor: { capabilities: { ...readOnly, create: true }, handler: writer },
    },
    limits: { requestsPerMinute: 60, concurrentRequests: 5 },
    ...overrides,
  };
}

/** A copy missing one property, as a loosely built connector might be. */
function without<T extends object>(value: T, key: keyof T): T {
  const copy = { ...value };
  Reflect.deleteProperty(copy, key);
  return copy;
}

function registrationError(connector: Connector): string {
  try {
    createConnectorRegistry().register(connector);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('registration unexpectedly succeeded');
}

describe('registerConnector', () => {
  it('accepts a valid connector', () => {
    expect(validateConnector(testConnector())).toEqual([]);
    const registry = createConnectorRegistry();
    registry.register(testConnector());
    registry.register(testConnector({ id: 'ANOTHER_1' }));
    expect(registry.get('TESTPLATFORM')?.name).toBe('Test platform');
    expect(registry.list().map((c) => c.id)).toEqual(['ANOTHER_1', 'TESTPLATFORM']);
  });

  it('rejects a malformed id', () => {
    expect(registrationError(testConnector({ id: 'Xero' }))).toContain('id "Xero" must be upper-case');
    expect(registrationError(testConnector({ id: '' }))).toContain('must be upper-case');
  });

  it('rejects a second connector with the same id', () => {
    const registry = createConnectorRegistry();
    registry.register(testConnector());
    expect(() => {
      registry.register(testConnector());
    }).toThrow('already registered');
  });

  it("lets a plugin's connector replace an earlier plugin's, but neither a built-in one nor be replaced by register()", () => {
    const registry = createConnectorRegistry();
    const first = testConnector({ id: 'PLUGIN' });
    const second = testConnector({ id: 'PLUGIN' });
    registry.replace(first);
    registry.replace(second);
    expect(registry.get('PLUGIN')).toBe(second);
    expect(() => {
      registry.register(testConnector({ id: 'PLUGIN' }));
    }).toThrow('already registered');
    registry.register(testConnector());
    expect(() => {
      registry.replace(testConnector());
    }).toThrow('not by a plugin: it cannot be replaced');
    expect(() => {
      registry.replace(testConnector({ id: 'PLUGIN', name: '' }));
    }).toThrow('name is empty');
    expect(registry.get('PLUGIN')).toBe(second);
  });

  it('rejects handlers that do not match the capabilities, naming each problem', () => {
    const message = registrationError(
      testConnector({
        objects: {
          account: { capabilities: readOnly, handler: { ...writer } }, // has create, says create: false
          vendor: { capabilities: { ...readOnly, update: true }, handler }, // says update, has none
          bill: { capabilities: readOnly, handler: without(handler, 'read') },
        },
      }),
    );
    expect(message).toContain('object "account" has create() but its capabilities say create: false');
    expect(message).toContain('object "vendor" declares update but its handler has no update()');
    expect(message).toContain('object "bill" can be read but its handler has no read()');
  });

  it('rejects capabilities that need reading on an object that is not read', () => {
    const message = registrationError(
      testConnector({
        objects: { invoice: { capabilities: { ...readOnly, read: false }, handler: writer } },
      }),
    );
    expect(message).toContain('incremental must be "none"');
    expect(message).toContain('cannot be filtered');
  });

  it('rejects unknown objects, bad credential fields and insane limits', () => {
    const objects: Connector['objects'] = {};
    Reflect.set(objects, 'widget', { capabilities: readOnly, handler });
    const unknownField = { field: 'api_key', label: 'Password', required: false, secret: true } as const;
    Reflect.set(unknownField, 'field', 'password');
    const message = registrationError(
      testConnector({
        objects,
        auth: {
          type: 'credentials',
          fields: [
            { field: 'api_key', label: 'API key', required: true, secret: true },
            { field: 'api_key', label: '', required: false, secret: true },
            unknownField,
          ],
        },
        limits: { requestsPerMinute: 0, concurrentRequests: 2.5 },
      }),
    );
    expect(message).toContain('object "widget" is not a unified object type');
    expect(message).toContain('credential field "api_key" is listed twice');
    expect(message).toContain('credential field "api_key" has no label');
    expect(message).toContain('credential field "password" is not a credential field');
    expect(message).toContain('limits.requestsPerMinute 0');
    expect(message).toContain('limits.concurrentRequests 2.5');
  });

  it('checks a daily budget, a cost bucket and per-operation rates as the platform states them', () => {
    const costOf = (): number | null => null;
    expect(() => {
      createConnectorRegistry().register(
        testConnector({
          limits: {
            requestsPerMinute: 50,
            burst: 10,
            concurrentRequests: 5,
            dailyRequests: 5_000,
            costBucket: { size: 1_000, refillPerSecond: 100, defaultCost: 10, costOf },
            operations: { getOrders: { requestsPerSecond: 0.0167, burst: 20 } },
          },
        }),
      );
    }).not.toThrow();
    const message = registrationError(
      testConnector({
        limits: {
          requestsPerMinute: null,
          burst: 10,
          concurrentRequests: null,
          dailyRequests: 0,
          costBucket: { size: 100, refillPerSecond: 0, defaultCost: 101 },
          operations: { '': { requestsPerSecond: -1, burst: 0.5 } },
        },
      }),
    );
    expect(message).toContain('limits.dailyRequests 0');
    expect(message).toContain('limits.burst 10 must be an integer from 1 to');
    expect(message).toContain('limits.costBucket.refillPerSecond 0');
    expect(message).toContain('limits.costBucket.defaultCost 101 must be a number above 0 and at most the size');
    expect(message).toContain('limits.operations "" is not an operation name');
    expect(message).toContain('limits.operations "" requestsPerSecond -1');
    expect(message).toContain('limits.operations "" burst 0.5');
  });

  it('rejects an OAuth connector without its auth functions', () => {
    const auth: Connector['auth'] = {
      type: 'oauth2',
      authorizeUrl: () => 'https://example.test',
      exchangeCode: () => Promise.reject(new Error('unused')),
      refresh: () => Promise.reject(new Error('unused')),
    };
    const message = registrationError(testConnector({ auth: without(without(auth, 'exchangeCode'), 'refresh') }));
    expect(message).toContain('auth.exchangeCode is not a function');
    expect(message).toContain('auth.refresh is not a function');
  });

  it('rejects callback parameters the link flow reads itself, or that are not plain names', () => {
    const auth: Connector['auth'] = {
      type: 'oauth2',
      callbackParams: ['shop', 'state', 'code', 'bad name'],
      authorizeUrl: () => 'https://example.test',
      exchangeCode: () => Promise.reject(new Error('unused')),
      refresh: () => Promise.reject(new Error('unused')),
    };
    const message = registrationError(testConnector({ auth }));
    // state may be read (Shopify signs it in the callback's hmac); the link flow still checks it first.
    expect(message).not.toContain('callback parameter "state"');
    expect(message).toContain('callback parameter "code" is reserved');
    expect(message).toContain('callback parameter "bad name" is reserved by the link flow or not a plain parameter name');
    expect(message).not.toContain('"shop"');
  });
});

describe('capabilityOf', () => {
  const registry = createConnectorRegistry();
  registry.register(testConnector());

  it('answers per platform, object and operation', () => {
    expect(registry.capabilityOf('TESTPLATFORM', 'account', 'read')).toBe(true);
    expect(registry.capabilityOf('TESTPLATFORM', 'account', 'create')).toBe(false);
    expect(registry.capabilityOf('TESTPLATFORM', 'vendor', 'create')).toBe(true);
    expect(registry.capabilityOf('TESTPLATFORM', 'invoice', 'read')).toBe(false);
    expect(registry.capabilityOf('NOPE', 'account', 'read')).toBe(false);
  });

  it('backs a 404 for unsupported operations', () => {
    let thrown: unknown;
    try {
      requireCapability('NOPE', 'invoice', 'create');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    expect(thrown).toMatchObject({ code: 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM', status: 404 });
  });
});

describe('connector interface v2 at registration', () => {
  const oauth = (authorizationInput: NonNullable<Extract<Connector['auth'], { type: 'oauth2' }>['authorizationInput']>): Connector =>
    testConnector({
      auth: {
        type: 'oauth2',
        authorizationInput,
        authorizeUrl: () => 'https://example.com/authorize',
        exchangeCode: () => Promise.reject(new Error('not called')),
        refresh: () => Promise.reject(new Error('not called')),
      },
    });
  const shop = { field: 'store_url', label: 'Shop domain', hint: 'like my-shop.myshopify.com', pattern: /^[a-z0-9-]+\.myshopify\.com$/ } as const;

  it('accepts authorisation input with an anchored pattern, and refuses an unanchored one, an unknown field or a repeat', () => {
    expect(validateConnector(oauth([shop]))).toEqual([]);
    expect(validateConnector(oauth([{ ...shop, pattern: /\.myshopify\.com/ }]))).toEqual([
      'authorization input "store_url" pattern must be a regular expression anchored with ^ and $',
    ]);
    const problems = validateConnector(oauth([shop, shop, { ...shop, field: 'shop_domain' as 'store_url', label: ' ', hint: '' }]));
    expect(problems).toEqual(
      expect.arrayContaining([
        'authorization input "store_url" is listed twice',
        'authorization input "shop_domain" is not a credential field of the API',
        'authorization input "shop_domain" has no label',
        'authorization input "shop_domain" has no hint for a value that does not match',
      ]),
    );
  });

  it('refuses a bulk read without its functions, or on an object that is not read', () => {
    const bulk = {
      startExport: () => Promise.resolve('e1'),
      pollExport: () => Promise.resolve({ status: 'ready' as const }),
      readExportPage: () => Promise.resolve({ records: [], nextCursor: null }),
    };
    expect(validateConnector(testConnector({ objects: { account: { capabilities: readOnly, handler: { ...handler, bulk } } } }))).toEqual([]);
    const broken = without(bulk, 'pollExport');
    expect(validateConnector(testConnector({ objects: { account: { capabilities: readOnly, handler: { ...handler, bulk: broken } } } }))).toEqual([
      'object "account" bulk.pollExport is not a function',
    ]);
    const unread: ObjectCapabilities = { ...readOnly, read: false, incremental: 'none', deletions: 'none', filter: false, fetchByPlatformId: false };
    expect(validateConnector(testConnector({ objects: { account: { capabilities: unread, handler: { ...handler, bulk } } } }))).toContain(
      'object "account" has a bulk read but its capabilities say read: false',
    );
  });

  it('checks a platform that calls us: no credential field to type, and a .qwc file the Web Connector accepts', () => {
    const file = { appName: 'Ledgerport', appDescription: 'Test', qbType: 'QBFS', runEveryMinutes: 15 } as const;
    const polled = { client: 'web-connector', file } as const;
    expect(validateConnector(testConnector({ auth: { type: 'credentials', fields: [] }, polled }))).toEqual([]);
    expect(validateConnector(testConnector({ polled }))).toContain(
      'polled: auth must be credentials without fields (the link page hands out the .qwc file and its password)',
    );
    expect(
      validateConnector(
        testConnector({ auth: { type: 'credentials', fields: [] }, polled: { ...polled, file: { ...file, appName: ' ', runEveryMinutes: 0 } } }),
      ),
    ).toEqual(['polled.file.appName is empty', 'polled.file.runEveryMinutes must be an integer from 1 to 1440']);
  });
});
