/**
 * GET /accounting/invoices/:id/pdf through the real server: SANDBOX's link opens a PDF of the invoice, QuickBooks
 * Online's the PDF its stand-in renders (an invoice deleted there since the sync answers QBO's Fault); auth, other
 * organisations and connections, malformed input and tampered links refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, type TestApp } from '../../../../test/support/app.ts';
import type { SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import { startReadApp, type ReadApp } from '../../../../test/support/read-app.ts';
import { invoicePdf as standInInvoicePdf } from '../../../../test/standins/quickbooks/invoice-pdf.ts';

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

  it("answers QuickBooks Online's link, which opens the PDF QBO renders of the invoice; one deleted in QBO since the sync answers QBO's refusal", async () => {
    const { token } = await r.quickbooks();
    const invoice = await anInvoice(token);
    const body = await r.ok(`/accounting/invoices/${String(invoice.id)}/pdf`, token);
    const link = String((body.invoice as Json).pdf_link);
    const platformId = String(invoice.platform_id);
    const record = r.qbo.company().find('Invoice', platformId);
    if (record === null) throw new Error(`no stand-in invoice ${platformId}`);
    const pdf = await download(link);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.equals(standInInvoicePdf(record))).toBe(true);
    expect(pdf.rawPayload.toString('latin1')).toContain(`(INVOICE ${String(record.DocNumber)}) Tj`);
    expect(r.qbo.log.some((l) => l.path.endsWith(`/invoice/${platformId}/pdf`) && l.status === 200)).toBe(true);

    // Gone from QBO after the sync: QBO's 610 Fault, answered as the platform's refusal (450).
    r.qbo.company().remove('Invoice', platformId);
    const gone = await download(link);
    expect([gone.statusCode, errorBody(gone).error_code]).toEqual([450, 'PLATFORM_BAD_REQUEST']);
    expect(errorBody(gone).error_message).toContain('Object Not Found');
    expect(r.qbo.violations).toEqual([]);
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
