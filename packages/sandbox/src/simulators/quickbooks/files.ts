/**
 * Files as QBO Attachables. An attachable's FileAccessUri is the stable download endpoint: GET download/{attachableId}
 * answers, as plain text, a short-lived link to the file (QBO's presigned S3 link, valid 15 minutes), and the
 * simulator serves that link too (GET /attachments/{realmId}/{id}/{name}).
 */
import { createHmac } from 'node:crypto';
import type { NativeAttachment } from '../../native.ts';
import type { SimulatorAnswer, SimulatorGrant } from '../kit.ts';
import { fault, notFound } from './faults.ts';
import { entityNameOf, qboId, sandboxId, type Json } from './shapes.ts';

export function attachable(r: NativeAttachment, realmId: string): Json {
  return {
    FileName: r.FileName,
    FileAccessUri: `/v3/company/${realmId}/download/${qboId(r.Id)}`,
    Size: r.Size,
    ContentType: r.ContentType,
    AttachableRef: [{ EntityRef: { type: entityNameOf(r.ParentType), value: qboId(r.ParentId) }, IncludeOnSend: false }],
  };
}

/** How long a file link stays valid (QBO's TempDownloadUri: 15 minutes). */
export const LINK_SECONDS = 15 * 60;
/** The host the links name; the simulator answers them whatever the host. */
const FILE_HOST = 'https://intuit-qbo-sandbox.s3.amazonaws.com';

/** Links are signed with the realm, so one company's link does not open another's file. */
function signature(realmId: string, id: string, expires: number): string {
  return createHmac('sha256', 'quickbooks simulator files').update(`${realmId}/${id}/${expires}`).digest('hex').slice(0, 32);
}

/** The query parameter of a link that carries the kit's link token: the one an S3 presigned link has for its session. */
export const LINK_TOKEN_PARAM = 'X-Amz-Security-Token';

export async function download(grant: SimulatorGrant, id: string): Promise<SimulatorAnswer> {
  const realmId = grant.tenantId;
  const found = sandboxId('attachment', id);
  const record = found === null ? null : await grant.books.get('attachment', found);
  if (record === null) return notFound('Attachable', id);
  const expires = Math.floor(Date.now() / 1000) + LINK_SECONDS;
  const token = encodeURIComponent(await grant.linkToken(LINK_SECONDS));
  const link = `${FILE_HOST}/attachments/${realmId}/${id}/${encodeURIComponent(record.FileName)}?Expires=${expires}&Signature=${signature(realmId, id, expires)}&${LINK_TOKEN_PARAM}=${token}`;
  return { status: 200, headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: link };
}

export async function file(grant: SimulatorGrant, parts: readonly string[], query: URLSearchParams): Promise<SimulatorAnswer> {
  const [realmId = '', id = ''] = parts;
  const expires = Number(query.get('Expires'));
  const denied = fault(403, 'AuthorizationFault', '3100', 'AccessDenied', 'Request has expired or its signature does not match');
  if (realmId !== grant.tenantId || query.get('Signature') !== signature(realmId, id, expires)) return denied;
  if (!Number.isFinite(expires) || expires * 1000 < Date.now()) return denied;
  const found = sandboxId('attachment', id);
  const record = found === null ? null : await grant.books.get('attachment', found);
  if (record === null) return notFound('Attachable', id);
  return { status: 200, headers: { 'content-type': record.ContentType }, body: Buffer.from(record.Content, 'base64') };
}
