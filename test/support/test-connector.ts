/**
 * A tiny credential platform for tests of connection plumbing that must not
 * depend on SANDBOX's behaviour: username → account; password "secret" is right.
 */
import type { Connector } from '../../src/platforms/connector.ts';
import { PlatformError } from '../../src/platforms/errors.ts';
import { getConnector, registerConnector } from '../../src/platforms/registry.ts';

export const TEST_PLATFORM = 'TESTBOOKS';

export const testConnector: Connector = {
  id: TEST_PLATFORM,
  name: 'Test Books',
  kind: 'accounting',
  auth: {
    type: 'credentials',
    fields: [
      { field: 'basic_username', label: 'Username', required: true, secret: false },
      { field: 'basic_password', label: 'Password', required: true, secret: true },
    ],
  },
  identify(ctx) {
    if (ctx.credentials.basic_password !== 'secret') {
      return Promise.reject(new PlatformError({ kind: 'unauthorized', httpStatus: 401, message: 'Invalid username or password' }));
    }
    const user = ctx.credentials.basic_username ?? '';
    return Promise.resolve({ storeUniqueId: `acct-${user}`, storeName: `Books of ${user}` });
  },
  objects: {
    account: {
      capabilities: {
        read: true,
        incremental: 'none',
        deletions: 'full_listing',
        filter: true,
        fetchByPlatformId: true,
        create: false,
        update: false,
        delete: false,
      },
      handler: {
        read: () => Promise.resolve({ records: [], nextPageToken: null }),
        map: (record) => ({ platform_id: record.platformId }),
      },
    },
    bill: {
      capabilities: {
        read: true,
        incremental: 'none',
        deletions: 'full_listing',
        filter: true,
        fetchByPlatformId: true,
        create: false,
        update: false,
        delete: false,
      },
      handler: {
        read: () => Promise.resolve({ records: [], nextPageToken: null }),
        map: (record) => ({ platform_id: record.platformId }),
      },
    },
  },
  limits: { requestsPerMinute: null, concurrentRequests: null },
};

export function registerTestConnector(): void {
  if (getConnector(TEST_PLATFORM) === undefined) registerConnector(testConnector);
}
