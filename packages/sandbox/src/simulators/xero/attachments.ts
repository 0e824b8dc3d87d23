/** Files attached to bills, invoices and manual journals: the list of a record's attachments, and each file's bytes. */
import type { NativeAttachment } from '../../native.ts';
import type { SimulatorAnswer } from '../kit.ts';
import { uuidOfId } from '../uuid-ids.ts';
import { envelope, notFound } from './answers.ts';
import type { Json, XeroView } from './view.ts';

function renderAttachment(a: NativeAttachment, parentPath: string): Json {
  return {
    AttachmentID: uuidOfId(a.Id),
    FileName: a.FileName,
    Url: `https://api.xero.com/api.xro/2.0${parentPath}/Attachments/${encodeURIComponent(a.FileName)}`,
    MimeType: a.ContentType,
    ContentLength: a.Size,
    IncludeOnline: false,
  };
}

const of = async (view: XeroView, parentId: string): Promise<NativeAttachment[]> =>
  (await view.all('attachment')).filter((a) => a.ParentId === parentId);

export async function attachmentList(view: XeroView, parentPath: string, parentId: string): Promise<SimulatorAnswer> {
  return envelope(
    'Attachments',
    (await of(view, parentId)).map((a) => renderAttachment(a, parentPath)),
  );
}

/** The file itself; SANDBOX keeps its bytes in base64. */
export async function attachmentFile(view: XeroView, parentId: string, attachmentXeroId: string): Promise<SimulatorAnswer> {
  const found = (await of(view, parentId)).find((a) => uuidOfId(a.Id) === attachmentXeroId.toLowerCase());
  if (found === undefined) return notFound();
  return { status: 200, headers: { 'content-type': found.ContentType }, body: new Uint8Array(Buffer.from(found.Content, 'base64')) };
}
