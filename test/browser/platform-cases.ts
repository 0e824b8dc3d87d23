/**
 * The OAuth platforms the browser test drives, each through its stand-in: how
 * to start it, where the connector must look for it, what happens after the
 * consent page, and what the platform holds, read from the stand-in's state.
 */
import type { Page } from 'playwright-core';
import { startQuickBooksStandIn } from '../standins/quickbooks/index.ts';
import { startXeroStandIn } from '../standins/xero/server.ts';

export interface RunningStandIn {
  url: string;
  /** Environment variables that point the connector at the stand-in. */
  env: Record<string, string>;
  registerClient(client: { clientId: string; clientSecret: string; redirectUri: string }): void;
  /** What the link flow shows after the consent page (an organisation picker), done. */
  afterConsent(page: Page): Promise<void>;
  expectedStoreId: string;
  /** Live bills on the platform. */
  billCount(): number;
  /** Changes one bill on the platform; the unified field and value a sync must then show. */
  changeABill(): { platformId: string; field: string; expected: unknown };
  /** The unified field a created bill carries the test's marker in (memo, or document_number on Xero). */
  markerField: 'memo' | 'document_number';
  /** Whether the platform holds a bill carrying the marker. */
  billWithMarker(marker: string): boolean;
  violations(): unknown[];
  close(): Promise<void>;
}

export interface PlatformCase {
  platform: 'XERO' | 'QUICKBOOKS';
  /** The platform's entry in the link flow's picker. */
  pickerName: RegExp;
  start(): Promise<RunningStandIn>;
}

const quickbooks: PlatformCase = {
  platform: 'QUICKBOOKS',
  pickerName: /QuickBooks Online/,
  async start() {
    const standIn = await startQuickBooksStandIn();
    const company = standIn.company();
    return {
      url: standIn.url,
      env: {
        QUICKBOOKS_API_URL: standIn.url,
        QUICKBOOKS_TOKEN_URL: `${standIn.url}/oauth2/v1/tokens/bearer`,
        QUICKBOOKS_AUTHORIZE_URL: `${standIn.url}/connect/oauth2`,
      },
      registerClient: (client) => {
        standIn.registerClient(client);
      },
      afterConsent: () => Promise.resolve(),
      expectedStoreId: standIn.realmId,
      billCount: () => company.list('Bill').length,
      changeABill() {
        const bill = company.list('Bill')[0];
        if (bill === undefined) throw new Error('the stand-in company has no bill');
        const id = String(bill.Id);
        company.edit('Bill', id, (record) => {
          record.PrivateNote = 'Changed on QuickBooks';
        });
        return { platformId: id, field: 'memo', expected: 'Changed on QuickBooks' };
      },
      markerField: 'memo',
      billWithMarker: (marker) => company.list('Bill').some((bill) => bill.PrivateNote === marker),
      violations: () => [...standIn.violations],
      close: () => standIn.close(),
    };
  },
};

const xero: PlatformCase = {
  platform: 'XERO',
  pickerName: /Xero/,
  async start() {
    const standIn = await startXeroStandIn();
    // The consent page allows both organisations; the link flow then asks which one to connect: the second.
    const chosen = standIn.tenants[1];
    if (chosen === undefined) throw new Error('the Xero stand-in has one organisation only');
    const books = standIn.books(chosen.id);
    const bills = (): Record<string, unknown>[] => books.all('Invoices').filter((i) => i.Type === 'ACCPAY' && i.Status !== 'DELETED');
    return {
      url: standIn.url,
      env: { XERO_API_URL: standIn.url, XERO_LOGIN_URL: standIn.url, XERO_IDENTITY_URL: standIn.url },
      registerClient: (client) => {
        standIn.registerClient(client);
      },
      async afterConsent(page) {
        await page.getByRole('heading', { name: 'Choose an organisation' }).waitFor();
        await page.screenshot({ path: '/tmp/ledgerport-xero-organisations.png' });
        await page.getByLabel(chosen.name).check();
        await page.getByRole('button', { name: 'Connect' }).click();
      },
      expectedStoreId: chosen.id,
      billCount: () => bills().length,
      changeABill() {
        const bill = bills().find((b) => b.Status === 'AUTHORISED') ?? bills()[0];
        const id = typeof bill?.InvoiceID === 'string' ? bill.InvoiceID : '';
        books.change('Invoices', id, (record) => {
          record.InvoiceNumber = 'Changed on Xero';
        });
        return { platformId: id, field: 'document_number', expected: 'Changed on Xero' };
      },
      // Xero bills have no memo: their reference is the InvoiceNumber (document_number).
      markerField: 'document_number',
      billWithMarker: (marker) => bills().some((b) => b.InvoiceNumber === marker),
      violations: () => [...standIn.violations],
      close: () => standIn.close(),
    };
  },
};

export const PLATFORM_CASES: readonly PlatformCase[] = [xero, quickbooks];
