/**
 * What the attachment endpoints of every document type share (`/accounting/{plural}/…/attachments`, the spec's
 * "Journal entry attachments" and "Other entity attachments"): paths, whether the connection's platform has that
 * document's attachments, and the document named in the path.
 */
import { ServiceError } from '../../../errors/catalogue.ts';
import type { ConnectionRecord } from '../../../connections/types.ts';
import { assertEntityRead } from '../../../connections/entity-readiness.ts';
import { boundedRead } from '../../../db/bounded-read.ts';
import type { Pool } from '../../../db/pool.ts';
import type { AttachmentParent } from '../../../model/attachment.ts';
import { OBJECT_TYPES } from '../../../model/object-types.ts';
import { getConnector } from '../../../platforms/index.ts';
import { fetchRecord, type RecordRow } from '../../../sql/list-records.ts';

/** "bill", "journal entry": the document in messages and summaries. */
export const nameOf = (entity: AttachmentParent): string => OBJECT_TYPES[entity].singular.replaceAll('_', ' ');

/** /accounting/bills: the document's collection, under which its attachments are served. */
export const documentsPath = (entity: AttachmentParent): string => OBJECT_TYPES[entity].path;

/**
 * The platform has attachments of this document type (`read`) or takes uploads to it (`upload`): its attachment
 * capability says so (docs/platforms.md, "Attachments by object"). Otherwise 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.
 */
export function assertAttachedTo(connection: Pick<ConnectionRecord, 'platform'>, entity: AttachmentParent, use: 'read' | 'upload'): void {
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  const attachedTo = connector?.objects.attachment?.capabilities.attachedTo;
  // A connection without a platform yet has nothing to read; readiness answers for it.
  if (connection.platform === null || attachedTo?.[use].includes(entity) === true) return;
  throw new ServiceError(
    'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
    `${use === 'read' ? 'Attachments of' : 'Uploading attachments to'} ${OBJECT_TYPES[entity].plural.replaceAll('_', ' ')} ${use === 'read' ? 'are' : 'is'} not supported on ${connection.platform}; see docs/platforms.md.`,
    { source: 'service' },
  );
}

/** The live document of the path (by service id), or 410 naming it (409 ENTITY_NOT_READY when its type was never synced). */
export async function documentOf(
  pool: Pool,
  statementTimeoutMs: number,
  connection: ConnectionRecord,
  entity: AttachmentParent,
  id: string,
  forceFetch: boolean,
): Promise<RecordRow> {
  const row = await boundedRead(pool, statementTimeoutMs, { field: 'id', location: 'params' }, (db) =>
    fetchRecord(db, connection.id, entity, 'service', id, false),
  );
  if (row !== null) return row;
  await assertEntityRead(pool, connection, entity, forceFetch);
  throw new ServiceError('RESOURCE_NOT_FOUND', `No ${nameOf(entity)} with id ${id} in this connection.`, {
    source: 'service',
    field: 'id',
    location: 'params',
  });
}
