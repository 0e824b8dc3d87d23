import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { xeroWebhooks } from './webhooks.ts';

// The shape of Xero's documented example (developer.xero.com/documentation/guides/webhooks/overview).
const TENANT = 'c2cc9b6e-9458-4c7d-93cc-f02b81b0594f';
const body = JSON.stringify({
  events: [
    {
      resourceUrl: 'https://api.xero.com/api.xro/2.0/Contacts/717f2bfc-c6d4-41fd-b238-3f2f0c0cf777',
      resourceId: '717f2bfc-c6d4-41fd-b238-3f2f0c0cf777',
      eventDateUtc: '2017-06-21T01:15:39.902',
      eventType: 'UPDATE',
      eventCategory: 'CONTACT',
      tenantId: TENANT,
      tenantType: 'ORGANISATION',
    },
    {
      resourceUrl: 'https://api.xero.com/api.xro/2.0/Invoices/a4b3f0b5-2b4e-4d8c-9b1a-0a1f4f1e2d3c',
      resourceId: 'a4b3f0b5-2b4e-4d8c-9b1a-0a1f4f1e2d3c',
      eventDateUtc: '2017-06-21T01:16:00.000',
      eventType: 'CREATE',
      eventCategory: 'INVOICE',
      tenantId: TENANT,
      tenantType: 'ORGANISATION',
    },
    {
      resourceUrl: 'https://api.xero.com/api.xro/2.0/Subscriptions/1',
      resourceId: '1',
      eventDateUtc: '2017-06-21T01:16:00.000',
      eventType: 'UPDATE',
      eventCategory: 'SUBSCRIPTION',
      tenantId: TENANT,
      tenantType: 'ORGANISATION',
    },
  ],
  firstEventSequence: 1,
  lastEventSequence: 3,
  entropy: 'S0m3r4Nd0mt3xt',
});
const key = 'OSd0eLlVIY9ZhViEqlDUh4+6n6M+Lo+eDaEJheJ6OCCgWwIz2D3JIAU6jPMipHRbgKTLz2uJ+xiACXGDBLrgdA==';
const signature = createHmac('sha256', key).update(body).digest('base64');

describe('xeroWebhooks', () => {
  it('verifies x-xero-signature over the raw bytes only', () => {
    expect(xeroWebhooks.verify(Buffer.from(body), { 'x-xero-signature': signature }, key)).toBe(true);
    expect(xeroWebhooks.verify(Buffer.from(`${body}\n`), { 'x-xero-signature': signature }, key)).toBe(false);
    expect(xeroWebhooks.verify(Buffer.from(body), { 'x-xero-signature': signature }, 'another key')).toBe(false);
    expect(xeroWebhooks.verify(Buffer.from(body), {}, key)).toBe(false);
    expect(xeroWebhooks.verify(Buffer.from(body), { 'x-xero-signature': [signature, signature] }, key)).toBe(false);
  });

  it('reads a contact as a customer or a vendor and an invoice as an invoice or a bill; subscriptions change no books', () => {
    expect(xeroWebhooks.changes(JSON.parse(body), {})).toEqual([
      { account: TENANT, type: 'customer', platformId: '717f2bfc-c6d4-41fd-b238-3f2f0c0cf777' },
      { account: TENANT, type: 'vendor', platformId: '717f2bfc-c6d4-41fd-b238-3f2f0c0cf777' },
      { account: TENANT, type: 'invoice', platformId: 'a4b3f0b5-2b4e-4d8c-9b1a-0a1f4f1e2d3c' },
      { account: TENANT, type: 'bill', platformId: 'a4b3f0b5-2b4e-4d8c-9b1a-0a1f4f1e2d3c' },
    ]);
    expect(xeroWebhooks.changes({ events: [], firstEventSequence: 0, lastEventSequence: 0, entropy: 'x' }, {})).toEqual([]);
  });

  it("refuses a body that is not Xero's notification", () => {
    for (const wrong of [
      null,
      [],
      {},
      { events: 'x' },
      { events: [{ eventCategory: 'INVOICE' }] },
      { events: [{ tenantId: 1, eventCategory: 'INVOICE' }] },
    ]) {
      expect(xeroWebhooks.changes(wrong, {}), JSON.stringify(wrong)).toBeNull();
    }
  });
});
