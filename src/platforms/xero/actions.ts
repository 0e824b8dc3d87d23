/**
 * Files Xero keeps behind its own sign-in, fetched with the connection's tokens when a signed link is followed:
 * a synced attachment's file_url (GET …/Attachments/{AttachmentID}; the contract names the file's mime type in a
 * `contentType` header, and answers application/octet-stream), and an invoice's pdf_link (GET /Invoices/{InvoiceID}
 * asked with Accept: application/pdf, the contract's getInvoiceAsPdf).
 */
import type { ConnectorActions } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { xeroCall } from './client.ts';
import { attachmentParent } from './mapping/reports.ts';
import type { XeroStoredAttachment } from './types.ts';

const bytesOf = (response: PlatformResponse): Buffer => Buffer.from(response.body instanceof Uint8Array ? response.body : new Uint8Array());

export const xeroActions: ConnectorActions = {
  async downloadAttachment(ctx, attachment) {
    const raw: XeroStoredAttachment = attachment.raw;
    const parent = attachmentParent(raw)?.path ?? null;
    if (parent === null || raw.AttachmentID === undefined) {
      throw new PlatformError({
        kind: 'not_found',
        message: 'The stored attachment does not name the Xero record it belongs to',
        requestSent: false,
      });
    }
    const mime = raw.MimeType ?? 'application/octet-stream';
    const response = await xeroCall(ctx, {
      method: 'GET',
      path: `${parent}/Attachments/${encodeURIComponent(raw.AttachmentID)}`,
      operation: 'download attachment',
      // The file's type goes in Xero's contentType header; Accept asks for what the contract answers, raw bytes (an
      // Accept of the file's own type is refused: Prism answered 406).
      headers: { contentType: mime, accept: 'application/octet-stream' },
      responseType: 'bytes',
    });
    return { contentType: response.headers['content-type'] ?? mime, content: bytesOf(response) };
  },

  async invoicePdf(ctx, invoice) {
    if (invoice.platformId === '') {
      throw new PlatformError({ kind: 'not_found', message: 'The stored invoice has no Xero InvoiceID', requestSent: false });
    }
    // Xero's own rendering: the invoice read by id, asked for as a PDF rather than JSON.
    const response = await xeroCall(ctx, {
      method: 'GET',
      path: `/Invoices/${encodeURIComponent(invoice.platformId)}`,
      operation: 'invoice pdf',
      headers: { accept: 'application/pdf' },
      responseType: 'bytes',
    });
    return { contentType: 'application/pdf', content: bytesOf(response) };
  },
};
