/**
 * The Xero stand-in on its own, over HTTP: seeded books that hold together,
 * Xero's token rules (30-minute tokens, rotating refresh tokens, tenants per
 * grant), list behaviour (If-Modified-Since, where, order, pages, archived
 * contacts), contract violations recorded and answered 400, fault controls,
 * idempotent replays and the write rules the connector relies on.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { msDate, xeroMillis } from '../../../src/platforms/xero/dates.ts';
import { XeroBooks } from './books.ts';
import type { Json } from './seed.ts';
import { startXeroStandIn, type XeroStandIn } from './server.ts';

const APP = { clientId: 'standin-test', clientSecret: 'standin-secret', redirectUri: 'http://localhost:9/callback' };
let standin: XeroStandIn;
let token: string;
let tenant: string;

beforeAll(async () => {
  standin = await startXeroStandIn();
  standin.registerClient(APP);
});
afterAll(async () => {
  await standin.close();
});
beforeEach(() => {
  const issued = standin.issueTokens(APP.clientId);
  token = issued.accessToken;
  tenant = issued.tenantId;
  standin.violations.length = 0;
});

async function api(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(`${standin.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      'xero-tenant-id': tenant,
      accept: 'application/json',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text.startsWith('{') || text.startsWith('[') ? (JSON.parse(text) as Json) : { text },
  };
}

async function tokenCall(form: Record<string, string>): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${standin.url}/connect/token`, {
    method: 'POST',
    body: new URLSearchParams(form),
    headers: {
      authorization: `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('the Xero stand-in', () => {
  it('seeds two organisations whose records hold together', () => {
    const [nz, uk] = standin.tenants;
    expect(standin.tenants.map((t) => t.name)).toEqual(['Demo Company (NZ)', 'Demo Company (UK)']);
    const a = standin.books(nz?.id);
    const b = standin.books(uk?.id);
    expect(a.all('Invoices').filter((i) => i.Type === 'ACCPAY').length).toBeGreaterThan(100);
    const idsOf = (books: typeof a) => new Set(books.all('Invoices').map((i) => String(i.InvoiceID)));
    const shared = [...idsOf(a)].filter((id) => idsOf(b).has(id));
    expect(shared).toEqual([]);
    expect(b.all('Invoices')).toHaveLength(a.all('Invoices').length);
    for (const books of [a, b]) {
      const contacts = new Set(books.all('Contacts').map((c) => c.ContactID));
      const codes = new Set(
        books
          .all('Accounts')
          .filter((x) => x.Status === 'ACTIVE')
          .map((x) => x.Code),
      );
      for (const invoice of books.all('Invoices')) {
        expect(contacts.has((invoice.Contact as Json).ContactID), String(invoice.InvoiceID)).toBe(true);
        for (const line of invoice.LineItems as Json[]) expect(codes.has(line.AccountCode), String(line.AccountCode)).toBe(true);
      }
    }
  });

  it('lists changes since If-Modified-Since (inclusive), filtered, ordered and paged', async () => {
    const bills = standin
      .books()
      .all('Invoices')
      .filter((i) => i.Type === 'ACCPAY');
    const times = bills.map((b) => xeroMillis(b.UpdatedDateUTC) ?? 0).sort((x, y) => x - y);
    const since = new Date(times[times.length - 5] ?? 0).toISOString();
    const recent = await api('/api.xro/2.0/Invoices?where=Type%3D%3D%22ACCPAY%22&order=UpdatedDateUTC%20DESC&page=1', {
      headers: { 'if-modified-since': since },
    });
    const listed = recent.body.Invoices as Json[];
    expect(listed).toHaveLength(5);
    expect(listed.map((i) => xeroMillis(i.UpdatedDateUTC))).toEqual(times.slice(-5).reverse());
    const second = await api('/api.xro/2.0/Invoices?where=Type%3D%3D%22ACCPAY%22&page=2');
    expect(second.body.Invoices).toHaveLength(bills.length - 100);
    const unpaged = await api('/api.xro/2.0/Invoices?where=Type%3D%3D%22ACCPAY%22');
    expect((unpaged.body.Invoices as Json[]).every((i) => !('LineItems' in i))).toBe(true);
    const bad = await api('/api.xro/2.0/Invoices?where=Type%3D%3D');
    expect(bad).toMatchObject({ status: 400, body: { Type: 'QueryParseException' } });
    expect(standin.violations).toEqual([]);
  });

  it('keeps archived contacts out unless includeArchived=true', async () => {
    const books = standin.books();
    const contact = books.all('Contacts').find((c) => c.Name === 'Lisa Parker') ?? {};
    books.change('Contacts', String(contact.ContactID), (c) => {
      c.ContactStatus = 'ARCHIVED';
    });
    const ids = (body: Json) => (body.Contacts as Json[]).map((c) => c.ContactID);
    expect(ids((await api('/api.xro/2.0/Contacts?page=1')).body)).not.toContain(contact.ContactID);
    expect(ids((await api('/api.xro/2.0/Contacts?page=1&includeArchived=true')).body)).toContain(contact.ContactID);
    books.change('Contacts', String(contact.ContactID), (c) => {
      c.ContactStatus = 'ACTIVE';
    });
  });

  it('answers contract violations 400 and records them', async () => {
    const noTenant = await api('/api.xro/2.0/Accounts', { headers: { 'xero-tenant-id': '' } });
    expect(noTenant).toMatchObject({ status: 400, body: { Type: 'ContractViolation', Message: 'header parameter xero-tenant-id is required' } });
    const badBody = await api('/api.xro/2.0/Invoices', { method: 'PUT', body: { Invoices: 'nope' } });
    expect(badBody.status).toBe(400);
    const unknown = await api('/api.xro/2.0/Widgets');
    expect(unknown.status).toBe(400);
    expect(standin.violations.map((v) => [v.kind, v.operation, v.problems])).toEqual([
      ['request', 'getAccounts', ['header parameter xero-tenant-id is required']],
      ['request', 'createInvoices', ['body/Invoices must be array']],
      ['request', null, ["GET /Widgets is not in Xero's contract"]],
    ]);
  });

  it('issues 30-minute tokens, rotates refresh tokens, and answers expired tokens and foreign tenants as Xero does', async () => {
    const issued = standin.issueTokens(APP.clientId);
    const refreshed = await tokenCall({ grant_type: 'refresh_token', refresh_token: issued.refreshToken });
    expect(refreshed).toMatchObject({ status: 200, body: { expires_in: 1800, token_type: 'Bearer' } });
    expect(await tokenCall({ grant_type: 'refresh_token', refresh_token: issued.refreshToken })).toEqual({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    token = String(refreshed.body.access_token);
    const connections = await fetch(`${standin.url}/connections`, { headers: { authorization: `Bearer ${token}` } });
    expect(await connections.json()).toMatchObject([{ tenantId: tenant, tenantType: 'ORGANISATION', tenantName: 'Demo Company (NZ)' }]);
    const foreign = await api('/api.xro/2.0/Organisation', { headers: { 'xero-tenant-id': standin.tenants[1]?.id ?? '' } });
    expect(foreign).toMatchObject({ status: 403, body: { Detail: 'AuthenticationUnsuccessful' } });
    standin.expireAccessTokens();
    const expired = await api('/api.xro/2.0/Organisation');
    expect(expired.status).toBe(401);
    expect(String(expired.body.Detail)).toMatch(/^TokenExpired/);
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
    standin.revokeRefreshTokens();
    expect(await tokenCall({ grant_type: 'refresh_token', refresh_token: String(refreshed.body.refresh_token) })).toEqual({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(standin.violations).toEqual([]);
  });

  it('answers the next matching requests with the fault asked for', async () => {
    standin.failNext(429, 1, { path: '/api.xro/2.0/TaxRates' });
    standin.failNext(503, 2, { method: 'GET', path: /Currencies$/ });
    const limited = await api('/api.xro/2.0/TaxRates');
    expect(limited.status).toBe(429);
    expect([limited.headers.get('retry-after'), limited.headers.get('x-rate-limit-problem')]).toEqual(['1', 'minute']);
    expect((await api('/api.xro/2.0/TaxRates')).status).toBe(200);
    expect([
      (await api('/api.xro/2.0/Currencies')).status,
      (await api('/api.xro/2.0/Currencies')).status,
      (await api('/api.xro/2.0/Currencies')).status,
    ]).toEqual([503, 503, 200]);
    expect(standin.requestCount('/api.xro/2.0/Currencies', 'GET')).toBeGreaterThanOrEqual(3);
  });

  it("replays a write with a used Idempotency-Key and applies Xero's write rules", async () => {
    const books = standin.books();
    const supplier = books.all('Contacts').find((c) => c.IsSupplier === true) ?? {};
    const bill = {
      Invoices: [
        {
          Type: 'ACCPAY',
          Contact: { ContactID: supplier.ContactID },
          Date: '2025-05-01',
          Status: 'AUTHORISED',
          LineAmountTypes: 'NoTax',
          LineItems: [{ AccountCode: '429', Quantity: 2, UnitAmount: 12.5 }],
        },
      ],
    };
    const before = books.all('Invoices').length;
    const first = await api('/api.xro/2.0/Invoices', { method: 'PUT', body: bill, headers: { 'idempotency-key': 'k-1' } });
    const again = await api('/api.xro/2.0/Invoices', { method: 'PUT', body: bill, headers: { 'idempotency-key': 'k-1' } });
    expect(first.status).toBe(200);
    const created = (first.body.Invoices as Json[])[0] ?? {};
    expect(created).toMatchObject({ Total: 25, AmountDue: 25, Status: 'AUTHORISED' });
    expect((again.body.Invoices as Json[] | undefined)?.[0]?.InvoiceID).toBe(created.InvoiceID);
    expect(books.all('Invoices')).toHaveLength(before + 1);

    const badCode = await api('/api.xro/2.0/Invoices', {
      method: 'PUT',
      body: { Invoices: [{ ...bill.Invoices[0], LineItems: [{ AccountCode: 'nope', UnitAmount: 1 }] }] },
    });
    expect(badCode).toMatchObject({
      status: 400,
      body: {
        Type: 'ValidationException',
        Elements: [{ ValidationErrors: [{ Message: "Account code 'nope' is not a valid code for this document." }] }],
      },
    });
    const paid = books.all('Invoices').find((i) => i.Type === 'ACCPAY' && i.Status === 'AUTHORISED' && Number(i.AmountPaid) > 0) ?? {};
    const voidPaid = await api(`/api.xro/2.0/Invoices/${String(paid.InvoiceID)}`, { method: 'POST', body: { Invoices: [{ Status: 'VOIDED' }] } });
    expect(voidPaid.body).toMatchObject({
      Elements: [{ ValidationErrors: [{ Message: 'Payments and credit notes must be removed before voiding' }] }],
    });
    const journal = await api('/api.xro/2.0/ManualJournals', {
      method: 'PUT',
      body: {
        ManualJournals: [
          {
            Narration: 'x',
            JournalLines: [
              { AccountCode: '429', LineAmount: 10 },
              { AccountCode: '200', LineAmount: -9 },
            ],
          },
        ],
      },
    });
    expect(journal.body).toMatchObject({
      Elements: [{ ValidationErrors: [{ Message: 'The total debits (10.00) must equal total credits (9.00)' }] }],
    });
    // A change made "in Xero" moves UpdatedDateUTC forward.
    const changed = books.change('Invoices', String(created.InvoiceID), (i) => {
      i.Reference = 'later';
    });
    expect(xeroMillis(changed.UpdatedDateUTC) ?? 0).toBeGreaterThan(xeroMillis(created.UpdatedDateUTC) ?? 0);
    expect(msDate(0)).toBe('/Date(0+0000)/');
    expect(standin.violations).toEqual([]);
  });

  it('attaches a file to a bill as Xero would: listed, served, and the bill flagged HasAttachments', async () => {
    const books = standin.books();
    const bill = books.all('Invoices').find((i) => i.Type === 'ACCPAY' && i.HasAttachments !== true) ?? {};
    const id = String(bill.InvoiceID);
    const attachment = books.attach('Invoices', id, 'scan 1.pdf');
    expect(books.get('Invoices', id)?.HasAttachments).toBe(true);
    const listed = await api(`/api.xro/2.0/Invoices/${id}/Attachments`);
    expect(listed.body.Attachments).toEqual([attachment]);
    const file = await fetch(`${standin.url}/api.xro/2.0/Invoices/${id}/Attachments/${String(attachment.AttachmentID)}`, {
      headers: { authorization: `Bearer ${token}`, 'xero-tenant-id': tenant, contentType: 'application/pdf' },
    });
    expect((await file.arrayBuffer()).byteLength).toBe(attachment.ContentLength);
    expect(standin.violations).toEqual([]);
  });

  it("serves an invoice as a PDF when asked with Accept: application/pdf, and Xero's 404 for an unknown one", async () => {
    const books = standin.books();
    const invoice = books.all('Invoices').find((i) => i.Type === 'ACCREC') ?? {};
    const asked = (id: string, accept: string) =>
      fetch(`${standin.url}/api.xro/2.0/Invoices/${id}`, { headers: { authorization: `Bearer ${token}`, 'xero-tenant-id': tenant, accept } });
    const pdf = await asked(String(invoice.InvoiceID), 'application/pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer())).toEqual(XeroBooks.pdfOf(invoice));
    const asJson = await asked(String(invoice.InvoiceID), 'application/json');
    expect(((await asJson.json()) as { Invoices: Json[] }).Invoices[0]?.InvoiceID).toBe(invoice.InvoiceID);
    const unknown = await asked(randomUUID(), 'application/pdf');
    expect([unknown.status, await unknown.text()]).toEqual([404, "The resource you're looking for cannot be found"]);
    expect(standin.violations).toEqual([]);
  });
});
