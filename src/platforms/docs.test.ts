import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Connector } from './connector.ts';
import { renderPlatformsMarkdown } from './docs.ts';
import { listConnectors } from './index.ts';
import { createSandboxConnector } from '../../packages/sandbox/src/index.ts';

const connector: Connector = {
  id: 'DOCSTEST',
  name: 'Docs | Test',
  kind: 'commerce',
  auth: {
    type: 'credentials',
    fields: [
      { field: 'store_url', label: 'Store URL', required: true, secret: false },
      { field: 'api_key', label: 'API key', required: true, secret: true },
    ],
  },
  identify: () => Promise.resolve({ storeUniqueId: 's', storeName: null }),
  objects: {
    order: {
      capabilities: {
        read: true,
        incremental: 'cursor',
        deletions: 'full_listing',
        filter: false,
        fetchByPlatformId: true,
        create: false,
        update: false,
        delete: false,
        unmappedFields: ['shipping_total', 'discount_total'],
      },
      handler: { read: () => Promise.resolve({ records: [], nextPageToken: null }), map: () => ({}) },
    },
  },
  limits: { requestsPerMinute: 120, concurrentRequests: null },
};

describe('renderPlatformsMarkdown', () => {
  it('renders auth, limits, the capability table and unmapped fields', () => {
    const text = renderPlatformsMarkdown([connector]);
    expect(text).toContain('| DOCSTEST | Docs \\| Test | commerce | credentials | 1 |');
    expect(text).toContain('  - `store_url`: Store URL (required)');
    expect(text).toContain('  - `api_key`: API key (required, secret)');
    expect(text).toContain('- Limits: 120 requests per minute per connection');
    expect(text).toContain('| order | yes | cursor | full_listing | no | yes | no | no | no |');
    expect(text).toContain('| order | `discount_total`, `shipping_total` |');
    expect(renderPlatformsMarkdown([connector])).toBe(text);
  });

  it('renders a daily budget, a cost bucket and per-operation rates', () => {
    const text = renderPlatformsMarkdown([
      {
        ...connector,
        limits: {
          requestsPerMinute: null,
          concurrentRequests: 5,
          dailyRequests: 5000,
          costBucket: { size: 1000, refillPerSecond: 100, defaultCost: 10 },
          operations: { getOrders: { requestsPerSecond: 0.0167, burst: 20 } },
        },
      },
    ]);
    expect(text).toContain(
      '- Limits: 5 concurrent requests, 5000 requests per 24 hours (then paused until the window ends), ' +
        'a cost bucket of 1000 points refilling 100 per second, per operation `getOrders` 0.0167/s (burst 20) per connection',
    );
  });

  it('renders what the connector is tested against, its settings, notes and platform_data-only fields', () => {
    const order = connector.objects.order;
    if (order === undefined) throw new Error('the test connector declares order');
    const documented: Connector = {
      ...connector,
      documentation: {
        testedAgainst: "A stand-in built from the platform's fixtures.",
        settings: [{ variable: 'DOCSTEST_API_URL', description: 'API host' }],
        notes: ['Orders map to orders.'],
      },
      objects: {
        order: {
          capabilities: { ...order.capabilities, platformDataOnly: ['Tags', 'Channel'] },
          handler: order.handler,
        },
      },
    };
    const text = renderPlatformsMarkdown([documented]);
    expect(text).toContain("- Tested against: A stand-in built from the platform's fixtures.");
    expect(text).toContain('  - `DOCSTEST_API_URL`: API host');
    expect(text).toContain('- Orders map to orders.');
    expect(text).toContain('### Platform fields served only in platform_data');
    expect(text).toContain('| order | `Channel`, `Tags` |');
    expect(renderPlatformsMarkdown([connector])).not.toContain('platform_data');
  });
});

describe('docs/platforms.md', () => {
  it('matches the registered connectors (run `node scripts/gen-platform-docs.ts`)', async () => {
    const committed = await readFile(new URL('../../docs/platforms.md', import.meta.url), 'utf8');
    // SANDBOX as the default service offers it (SANDBOX_ENABLED), besides the catalogue's.
    expect(committed).toBe(renderPlatformsMarkdown([...listConnectors(), createSandboxConnector()]));
  });
});
