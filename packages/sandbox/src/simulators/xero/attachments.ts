/** Files attached to bills, invoices, manual journals and bank transfers: the list of a record's attachments, and each file's bytes. */
import type { NativeAttachment } from '../../native.ts';
import type { SimulatorAnswer } from '../kit.ts';
import { uuidOfId } from '../uuid-ids.ts';
import { envelope, notFound } from './answers.ts';
import type { Json, XeroView } from './view.ts';

/** Xero's Attachment of a record at `parentPath` (/Invoices/{id}); the stand-in's too. */
export function xeroAttachment(attachmentId: string, fileName: string, parentPath: string, mimeType: string, size: number): Json {
  return {
    AttachmentID: attachmentId,
    FileName: fileName,
    Url: `https://api.xero.com/api.xro/2.0${parentPath}/Attachments/${encodeURIComponent(fileName)}`,
    MimeType: mimeType,
    ContentLength: size,
    IncludeOnline: false,
  };
}

const of = async (view: XeroView, parentId: string): Promise<NativeAttachment[]> =>
  (await view.all('attachment')).filter((a) => a.ParentId === parentId);

export async function attachmentList(view: XeroView, parentPath: string, parentId: string): Promise<SimulatorAnswer> {
  return envelope(
    'Attachments',
    (await of(view, parentId)).map((a) => xeroAttachment(uuidOfId(a.Id), a.FileName, parentPath, a.ContentType, a.Size)),
  );
}

/** The file itself; SANDBOX keeps its bytes in base64. */
export async function attachmentFile(view: XeroView, parentId: string, attachmentXeroId: string): Promise<SimulatorAnswer> {
  const found = (await of(view, parentId)).find((a) => uuidOfId(a.Id) === attachmentXeroId.toLowerCase());
  if (found === undefined) return notFound();
  return { status: 200, headers: { 'content-type': found.ContentType }, body: new Uint8Array(Buffer.from(found.Content, 'base64')) };
}
