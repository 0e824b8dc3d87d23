import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { quickbooksWebhooks } from './webhooks.ts';

// The shape of Intuit's documented example (developer.intuit.com, Webhooks: "Sample notification").
const body = JSON.stringify({
  eventNotifications: [
    {
      realmId: '1185883450',
      dataChangeEvent: {
        entities: [
          { name: 'Customer', id: '1', operation: 'Create', lastUpdated: '2015-10-05T14:42:19-0700' },
          { name: 'Vendor', id: '1', operation: 'Create', lastUpdated: '2015-10-05T14:42:19-0700' },
          { name: 'Budget', id: '7', operation: 'Update', lastUpdated: '2015-10-05T14:42:19-0700' },
        ],
      },
    },
  ],
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
    expect(quickbooksWebhooks.changes(JSON.parse(body), {})).toEqual([
      { account: '1185883450', type: 'customer', platformId: '1' },
      { account: '1185883450', type: 'vendor', platformId: '1' },
    ]);
  });

  it("reads Intuit's CloudEvents format too: the entity from the type, the realm and the record from intuitaccountid and intuitentityid", () => {
    // The shape Intuit's SDKs read since the 2025 change of format (a JSON array of CloudEvents 1.0 events).
    const events = [
      {
        specversion: '1.0',
        id: '88cd52b2-2a6c-4e87-a4a6-2ab8bd8d4a42',
        source: 'intuit.dsnBgbseACLLRZNxo2dfc4evmEJdxde58xeeYcZliOU=',
        type: 'qbo.invoice.updated.v1',
        datacontenttype: 'application/json',
        time: '2025-09-10T21:31:25.179Z',
        intuitentityid: '130',
        intuitaccountid: '9341454917542146',
        data: {},
      },
      {
        specversion: '1.0',
        id: 'c0ffee00-0000-4000-8000-000000000001',
        source: 'intuit.x',
        type: 'qbo.billpayment.created.v1',
        datacontenttype: 'application/json',
        time: '2025-09-10T21:31:26.000Z',
        intuitentityid: '77',
        intuitaccountid: '9341454917542146',
        data: {},
      },
      {
        specversion: '1.0',
        id: 'c0ffee00-0000-4000-8000-000000000002',
        source: 'intuit.x',
        type: 'qbo.budget.updated.v1',
        datacontenttype: 'application/json',
        time: '2025-09-10T21:31:27.000Z',
        intuitentityid: '5',
        intuitaccountid: '9341454917542146',
        data: {},
      },
    ];
    expect(quickbooksWebhooks.changes(events, {})).toEqual([
      { account: '9341454917542146', type: 'invoice', platformId: '130' },
      { account: '9341454917542146', type: 'bill_payment', platformId: '77' },
    ]);
    for (const wrong of [
      [{ ...events[0], specversion: '0.3' }],
      [{ ...events[0], type: 'invoice.updated' }],
      [{ ...events[0], intuitaccountid: 9 }],
      [null],
    ]) {
      expect(quickbooksWebhooks.changes(wrong, {}), JSON.stringify(wrong)).toBeNull();
    }
  });

  it("refuses a body that is not Intuit's notification", () => {
    for (const wrong of [
      null,
      {},
      { eventNotifications: [{}] },
      { eventNotifications: [{ realmId: '1' }] },
      { eventNotifications: [{ realmId: '1', dataChangeEvent: { entities: [{}] } }] },
    ]) {
      expect(quickbooksWebhooks.changes(wrong, {}), JSON.stringify(wrong)).toBeNull();
    }
  });
});
