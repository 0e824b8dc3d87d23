/**
 * QuickBooks Online keeps attachment files behind the connection's sign-in:
 * the signed file_url of a synced attachment is served by asking QBO for the
 * file's temporary link (GET download/{attachableId}, with the bearer token)
 * and fetching the bytes from that link. The link is presigned, so it is
 * fetched without the bearer token (the file store refuses a second
 * credential, and the token has no business leaving Intuit's API). An invoice's signed pdf_link is served by
 * asking QBO for its own rendering (GET invoice/{id}/pdf); custom field definitions come from its Preferences
 * (custom-fields.ts).
 */
import type { ConnectorActions } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { invoicePdf, temporaryDownloadUrl } from './client.ts';
import { quickbooksCustomFields } from './custom-fields.ts';

const FALLBACK_TYPE = 'application/octet-stream';

export const quickbooksActions: ConnectorActions = {
  async downloadAttachment(ctx, attachment) {
    const { FileName: fileName, ContentType: declared } = attachment.raw;
    if (typeof fileName !== 'string' || fileName === '') {
      throw new PlatformError({
        kind: 'not_found',
        message: `QuickBooks Online attachable ${attachment.platformId} is a note and has no file`,
        requestSent: false,
      });
    }
    const link = await temporaryDownloadUrl(ctx, attachment.platformId);
    const response = await ctx.http.request({
      method: 'GET',
      url: link,
      headers: { accept: '*/*' },
      responseType: 'bytes',
      idempotent: true,
      operation: 'quickbooks download attachment file',
    });
    const body = response.body instanceof Uint8Array ? response.body : new Uint8Array();
    const header = response.headers['content-type'];
    // The Attachable's ContentType is what QBO was given on upload; the file store's header is the fallback.
    const contentType = typeof declared === 'string' && declared !== '' ? declared : header !== undefined && header !== '' ? header : FALLBACK_TYPE;
    return { contentType, content: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  },
  customFields: quickbooksCustomFields,
  invoicePdf: async (ctx, invoice) => ({ contentType: 'application/pdf', content: await invoicePdf(ctx, invoice.platformId) }),
};
