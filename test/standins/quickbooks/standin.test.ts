/**
 * The stand-in's own rules, over HTTP: what it refuses (and records as a
 * violation) is what the connector tests rely on "no violations" to mean.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LINK_SECONDS, startQuickBooksStandIn, type QuickBooksStandIn } from './index.ts';

let qbo: QuickBooksStandIn;
let token = '';
const CLIENT = { clientId: 'standin-client', clientSecret: 'standin-secret', redirectUri: 'http://127.0.0.1:9/callback' };

beforeAll(async () => {
  qbo = await startQuickBooksStandIn({ generatedBills: 3 });
  qbo.registerClient(CLIENT);
  token = qbo.issueTokens({ clientId: CLIENT.clientId }).accessToken;
});
afterAll(async () => {
  await qbo.close();
});

type Json = Record<string, unknown>;

async function call(
  path: string,
  init: { method?: string; body?: unknown; accept?: string; bearer?: string } = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(`${qbo.url}/v3/company/${qbo.realmId}/${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.bearer ?? token}`, accept: init.accept ?? 'application/json', 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

const q = (text: string): string => `query?minorversion=75&query=${encodeURIComponent(text)}`;

function lastViolation(): string {
  return qbo.violations
    .splice(0)
    .map((v) => v.reason)
    .join(' | ');
}

describe('QuickBooks Online stand-in', () => {
  it("answers the query subset with QBO's paging fields, and refuses anything else as a QueryParserError", async () => {
    const page = await call(q("SELECT * FROM Bill WHERE TxnDate >= '2015-01-01' ORDERBY Id DESC STARTPOSITION 2 MAXRESULTS 2"));
    expect(page.status).toBe(200);
    const response = page.body.QueryResponse as { Bill: { Id: string }[]; startPosition: number; maxResults: number };
    expect([response.Bill.map((b) => b.Id), response.startPosition, response.maxResults]).toEqual([['5002', '5001'], 2, 2]);
    expect((await call(q("SELECT * FROM Bill WHERE Id = '999999'"))).body.QueryResponse).toEqual({});
    expect(qbo.violations).toEqual([]);
    for (const bad of [
      'SELECT Id FROM Bill',
      'SELECT * FROM Bil',
      "SELECT * FROM Bill WHERE DocNumber = 'x'",
      'SELECT * FROM Bill MAXRESULTS 1001',
      'SELECT * FROM Bill LIMIT 5',
    ]) {
      const answer = await call(q(bad));
      expect(answer.status, bad).toBe(400);
      expect(answer.body.Fault).toMatchObject({ type: 'ValidationFault', Error: [{ code: '4000', Message: 'Error parsing query' }] });
      expect(lastViolation()).toContain('QueryParserError');
    }
  });

  it('requires minorversion, Accept: application/json and a token of the realm in the path', async () => {
    expect((await call('companyinfo/' + qbo.realmId)).status).toBe(400);
    expect(lastViolation()).toBe('every call must pin minorversion');
    expect((await call(`companyinfo/${qbo.realmId}?minorversion=75`, { accept: 'application/xml' })).status).toBe(400);
    expect(lastViolation()).toContain('Accept: application/json');
    const other = qbo.addCompany({ realmId: '111', name: 'Other' });
    const foreign = qbo.issueTokens({ clientId: CLIENT.clientId, realmId: other.realmId }).accessToken;
    expect((await call(`companyinfo/${qbo.realmId}?minorversion=75`, { bearer: foreign })).status).toBe(403);
    expect(lastViolation()).toContain(`token of realm 111 used for realm ${qbo.realmId}`);
  });

  it('answers an expired token with the AuthenticationFault, and a used refresh token with invalid_grant', async () => {
    const issued = qbo.issueTokens({ clientId: CLIENT.clientId });
    qbo.expireAccessTokens();
    const refused = await call(`companyinfo/${qbo.realmId}?minorversion=75`, { bearer: issued.accessToken });
    expect(refused.status).toBe(401);
    expect(refused.body.Fault).toMatchObject({ type: 'AuthenticationFault', Error: [{ code: '3200' }] });
    const refresh = () =>
      fetch(`${qbo.url}/oauth2/v1/tokens/bearer`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: issued.refreshToken }),
      });
    const first = await refresh();
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    const again = await refresh();
    expect([again.status, await again.json()]).toEqual([400, { error: 'invalid_grant' }]);
    token = qbo.issueTokens({ clientId: CLIENT.clientId }).accessToken;
    expect(qbo.violations).toEqual([]);
  });

  it('serves ChangeDataCapture for 30 days and the entities it covers only', async () => {
    qbo.company().void('BillPayment', '130');
    const since = new Date(Date.now() - 60_000).toISOString();
    const answer = await call(`cdc?minorversion=75&entities=BillPayment&changedSince=${since}`);
    const [payments] = ((answer.body.CDCResponse as { QueryResponse: Json[] }[])[0]?.QueryResponse ?? []) as { BillPayment: Json[] }[];
    expect(payments?.BillPayment).toMatchObject([{ Id: '130', TotalAmt: 0, Line: [], PrivateNote: 'Voided - Acct. 1JK90', SyncToken: '1' }]);
    expect((await call(`cdc?minorversion=75&entities=TaxRate&changedSince=${since}`)).status).toBe(400);
    expect(lastViolation()).toContain('does not cover TaxRate');
    expect((await call(`cdc?minorversion=75&entities=Bill&changedSince=${new Date(Date.now() - 31 * 86_400_000).toISOString()}`)).status).toBe(400);
    expect(lastViolation()).toContain('within the last 30 days');
  });

  it('writes with SyncToken checks, voids, and answers a repeated requestid with the first outcome', async () => {
    const created = await call('bill?minorversion=75&requestid=r-1', {
      method: 'POST',
      body: {
        VendorRef: { value: '56' },
        Line: [{ DetailType: 'AccountBasedExpenseLineDetail', Amount: 12.5, AccountBasedExpenseLineDetail: { AccountRef: { value: '7' } } }],
      },
    });
    const bill = created.body.Bill as Json;
    expect(bill).toMatchObject({ SyncToken: '0', TotalAmt: 12.5, Balance: 12.5 });
    const repeat = await call('bill?minorversion=75&requestid=r-1', { method: 'POST', body: { VendorRef: { value: '56' }, Line: [] } });
    expect((repeat.body.Bill as Json).Id).toBe(bill.Id);
    expect(qbo.repeatedRequestIds).toBe(1);
    const stale = await call('bill?minorversion=75', { method: 'POST', body: { Id: bill.Id, SyncToken: '7', sparse: true, PrivateNote: 'x' } });
    expect(stale.body.Fault).toMatchObject({ Error: [{ code: '5010' }] });
    const voided = await call('billpayment?minorversion=75&operation=update&include=void', {
      method: 'POST',
      body: { Id: '118', SyncToken: '0', sparse: true },
    });
    expect(voided.body.BillPayment).toMatchObject({ TotalAmt: 0, PrivateNote: 'Voided', SyncToken: '1' });
    // An invoice is voided by operation=void (Intuit's Invoice reference), not by a sparse update with include=void.
    const wrongVoid = await call('invoice?minorversion=75&operation=update&include=void', {
      method: 'POST',
      body: { Id: '239', SyncToken: '0', sparse: true },
    });
    expect(wrongVoid.body.Fault).toMatchObject({ Error: [{ code: '500' }] });
    expect(lastViolation()).toBe('Invoice is not voided by include=void');
    const invoiceVoid = await call('invoice?minorversion=75&operation=void', { method: 'POST', body: { Id: '239', SyncToken: '0' } });
    expect(invoiceVoid.body.Invoice).toMatchObject({ TotalAmt: 0, Balance: 0, SyncToken: '1' });
    qbo.violations.splice(0);
    const gone = await call('bill?minorversion=75&operation=delete', { method: 'POST', body: { Id: bill.Id, SyncToken: '0' } });
    expect(gone.body.Bill).toEqual({ status: 'Deleted', domain: 'QBO', Id: bill.Id });
    expect(qbo.violations).toEqual([]);
    const missing = await call('bill?minorversion=75', { method: 'POST', body: { Line: [] } });
    expect(missing.body.Fault).toMatchObject({ type: 'ValidationFault', Error: [{ code: '2020', element: 'VendorRef' }] });
    expect(lastViolation()).toBe('Required parameter VendorRef is missing in the request');
  });

  it("refuses a body that breaks Intuit's contract as QBO does (2010), and records an answer of its own that breaks it", async () => {
    const line = { DetailType: 'AccountBasedExpenseLineDetail', Amount: 3, AccountBasedExpenseLineDetail: { AccountRef: { value: '7' } } };
    const misspelt = await call('bill?minorversion=75', { method: 'POST', body: { VendorRef: { value: '56' }, Line: [line], Memo1: 'x' } });
    expect([misspelt.status, misspelt.body.Fault]).toMatchObject([400, { type: 'ValidationFault', Error: [{ code: '2010', element: 'Bill' }] }]);
    expect(lastViolation()).toBe('Bill has Memo1, which the contract does not have');
    const sparse = await call('bill?minorversion=75', { method: 'POST', body: { Id: '25', SyncToken: '0', sparse: true, TotalAmt: '3' } });
    expect(sparse.body.Fault).toMatchObject({ Error: [{ code: '2010', element: 'Bill.TotalAmt' }] });
    expect(lastViolation()).toBe('Bill.TotalAmt must be number');
    qbo.company().edit('Vendor', '56', (vendor) => {
      vendor.Balance = '12.00';
    });
    expect((await call('vendor/56?minorversion=75')).status).toBe(200);
    expect(lastViolation()).toBe("the stand-in's answer breaks Intuit's contract: answer.Vendor.Balance must be number");
  });

  it("answers GET download/{id} with a presigned file link that serves the attachable's file for 15 minutes, without a bearer", async () => {
    let clock = Date.now();
    const own = await startQuickBooksStandIn({ now: () => clock });
    try {
      own.registerClient(CLIENT);
      const bearer = own.issueTokens({ clientId: CLIENT.clientId }).accessToken;
      const download = (id: string) =>
        fetch(`${own.url}/v3/company/${own.realmId}/download/${id}?minorversion=75`, {
          headers: { authorization: `Bearer ${bearer}`, accept: 'text/plain, application/json' },
        });
      const answer = await download('5000000000000010341');
      expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'text/plain;charset=UTF-8']);
      const link = await answer.text();
      expect(link).toMatch(new RegExp(`^${own.url}/attachments/${own.realmId}/[0-9a-f]{32}/receipt_nov15\\.jpg\\?Expires=\\d+&Signature=`));
      const file = await fetch(link);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect([file.status, file.headers.get('content-type'), bytes.length]).toEqual([200, 'image/jpeg', 1594261]);
      expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
      expect(bytes.equals(own.company().file('5000000000000010341')?.content ?? Buffer.alloc(0))).toBe(true);
      // The same Id always gives the same file, in every company.
      expect(bytes.equals(qbo.company().file('5000000000000010341')?.content ?? Buffer.alloc(0))).toBe(true);
      expect(own.violations).toEqual([]);

      expect((await fetch(link, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(400);
      expect(own.violations.splice(0).map((v) => v.reason)).toEqual(['Authorization header sent to a presigned file link']);
      clock += (FILE_LINK_SECONDS + 1) * 1000;
      const expired = await fetch(link);
      expect([expired.status, await expired.text()]).toEqual([403, expect.stringContaining('Request has expired')]);

      for (const id of ['200900000000000008541', '999']) {
        const missing = await download(id);
        expect(missing.status, id).toBe(400);
        expect(((await missing.json()) as Json).Fault).toMatchObject({ type: 'ValidationFault', Error: [{ code: '610' }] });
      }
      expect(own.violations).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
