import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { quickbooksWebhooks } from './webhooks.ts';

// The shape of Intuit's documented example (developer.intuit.com, Webhooks: "Sample notification").
const body = JSON.stringify({
  eventNotifications: [{
    realmId: '1185883450',
    dataChangeEvent: {
      entities: [
        { name: 'Customer', id: '1', operation: 'Create', lastUpdated: '2015-10-05T14:42:19-0700' },
        { name: 'Vendor', id: '1', operation: 'Create', lastUpdated: '2015-10-05T14:42:19-0700' },
        { name: 'Budget', id: '7', operation: 'Update', lastUpdated: '2015-10-05T14:42:19-0700' },
      ],
    },
  }],
});
const token = 'verifier-token-from-the-developer-portal';
const signature = createHmac('sha256', token).update(body).digest('base64');

describe('quickbooksWebhooks', () => {
  it('verifies intuit-signature over the raw bytes', () => {
    expect(quickbooksWebhooks.verify(Buffer.from(body), { 'intuit-signature': signature }, token)).toBe(true);
    expect(quickbooksWebhooks.verify(Buffer.from(body), { 'intuit-signature': signature }, 'other')).toBe(false);
    expect(quickbooksWebhooks.verify(Buffer.from(body), { 'x-xero-signature': signature }, token)).toBe(false);
  });

  it('names each entity by the unified type it is read as; an entity we do not read (Budget) changes nothing stored', () => {
    expect(quickbooksWebhooks.changes(JSON.parse(body))).toEqual([
      { account: '1185883450', type: 'customer', platformId: '1' },
      { account: '1185883450', type: 'vendor', platformId: '1' },
    ]);
  });

  it('refuses a body that is not Intuit\'s notification', () => {
    for (const wrong of [null, {}, { eventNotifications: [{}] }, { eventNotifications: [{ realmId: '1' }] }, { eventNotifications: [{ realmId: '1', dataChangeEvent: { entities: [{}] } }] }]) {
      expect(quickbooksWebhooks.changes(wrong), JSON.stringify(wrong)).toBeNull();
    }
  });
});
