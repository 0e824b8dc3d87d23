/**
 * GET /accounting/invoices/:id/pdf through the real server: SANDBOX's link opens a PDF of the invoice; QuickBooks
 * Online (no PDFs through its connector yet) refused; auth, other organisations and connections, malformed input and
 * tampered links refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, type TestApp } from '../../../../test/support/app.ts';
import type { SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import { startReadApp, type ReadApp } from '../../../../test/support/read-app.ts';

type Json = Record<string, unknown>;

let r: ReadApp;
let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  r = await startReadApp('user_invoice_pdf_size_400');
  ({ t, c } = r);
}, 120_000);
afterAll(async () => {
  await r.close();
});

const download = (url: string) => {
  const address = new URL(url);
  return t.app.inject({ method: 'GET', url: `${address.pathname}${address.search}` });
};

async function anInvoice(token = c.token): Promise<Json> {
  const [invoice] = (await r.ok('/accounting/invoices?limit=1', token)).invoices as Json[];
  if (invoice === undefined) throw new Error('no invoice');
  return invoice;
}

describe('GET /accounting/invoices/:id/pdf', () => {
  it("answers a signed link that opens a PDF of SANDBOX's invoice, without credentials", async () => {
    const invoice = await anInvoice();
    const body = await r.ok(`/accounting/invoices/${String(invoice.id)}/pdf`);
    expect(Object.keys(body).sort()).toEqual(['connection', 'invoice']);
    const link = String((body.invoice as Json).pdf_link);
    const pdf = await download(link);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdf.rawPayload.toString('latin1');
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(text).toContain(`(INVOICE ${String(invoice.document_number)}) Tj`);
    expect(text).toContain(`(Total: ${Number(invoice.total_amount).toFixed(2)} ${String(invoice.currency_code)}) Tj`);

    const tampered = new URL(link);
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 60));
    expect((await download(tampered.toString())).statusCode).toBe(401);
    const asReport = new URL(link);
    asReport.pathname = asReport.pathname.replace('/files/invoice-pdfs/', '/files/financial-reports/');
    expect((await download(asReport.toString())).statusCode).toBe(400);
  });

  it('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM where the connector gives no PDFs (QuickBooks Online)', async () => {
    const { token } = await r.quickbooks();
    const invoice = await anInvoice(token);
    const response = await r.get(`/accounting/invoices/${String(invoice.id)}/pdf`, token);
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
  });

  it("refuses missing auth and another organisation; another connection's invoice answers as an unknown id; malformed input is a 400", async () => {
    const invoice = await anInvoice();
    const path = `/accounting/invoices/${String(invoice.id)}/pdf`;
    expect((await r.get(path, c.token, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    const other = await t.newOrg('Invoice PDF other');
    expect(errorBody(await r.get(path, c.token, clientHeaders(other))).error_code).toBe('INVALID_CREDENTIALS');
    const second = await r.get(path.replace(String(invoice.id), '2f1c0d6e-8b1a-4c47-9a4e-0d8b7b0e6a11'), c.token);
    expect(second.statusCode).toBe(410);
    const refused = await r.get(`${path}?force_fetch=maybe`, c.token);
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).error_metadata).toMatchObject({ field: 'force_fetch' });
  });
});
