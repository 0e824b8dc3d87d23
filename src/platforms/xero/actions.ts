/**
 * Xero keeps attachment files behind its own sign-in: the signed file_url of
 * a synced attachment is served by fetching the file from Xero with the
 * connection's tokens (GET …/Attachments/{AttachmentID}; the contract names
 * the file's mime type in a `contentType` header, and answers application/octet-stream).
 */
import type { ConnectorActions } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { xeroCall } from './client.ts';
import { attachmentParent } from './mapping/reports.ts';
import type { XeroStoredAttachment } from './types.ts';

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
    const body = response.body instanceof Uint8Array ? response.body : new Uint8Array();
    return { contentType: response.headers['content-type'] ?? mime, content: Buffer.from(body) };
  },
};
