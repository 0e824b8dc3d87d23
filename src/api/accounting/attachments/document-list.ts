/**
 * GET /accounting/{plural}/:id/attachments: the attachments of one document (reference: "List Attachments for
 * Bill", `{attachments}`), paged and wrapped like every list of ours: `{attachments, next_cursor, connection}`.
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../../http/contract.ts';
import type { AttachmentParent } from '../../../model/attachment.ts';
import { assertEntityRead } from '../../../connections/entity-readiness.ts';
import { MODEL } from '../../../model/index.ts';
import { presenterOf, served } from '../../../store/served.ts';
import { DEFAULT_LIMIT, listPage, MAX_LIMIT } from '../../data/list-query.ts';
import { ExpandSchema, ForceFetchSchema, READ_ERRORS, readableConnection, wantsPlatformData } from '../../data/read.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';
import { refusePathWordAsServiceId } from '../../shared/record-id.ts';
import { IdParams } from '../../writes/submit.ts';
import { assertAttachedTo, documentOf, documentsPath, nameOf } from './support.ts';

/** What a read of a document's attachments may answer: a read's errors, and the document (or an id that is a path word) not found. */
export const DOCUMENT_READ_ERRORS = [...READ_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'] as const;

// Served objects are checked against the schema by the tests, as in src/api/data/read.ts.
const ATTACHMENT: TSchema = MODEL.attachment.schema;

export function documentAttachmentsEndpoint(entity: AttachmentParent): Endpoint {
  const contract = defineContract({
    method: 'GET',
    url: `${documentsPath(entity)}/:id/attachments`,
    auth: 'client',
    tags: ['attachments'],
    summary: `List the attachments of one ${nameOf(entity)}`,
    description: 'Newest first; next_cursor pages on like every list.',
    params: IdParams,
    querystring: Type.Object({
      access_token: Type.Optional(Type.String({ description: 'Connection access token (required).' })),
      cursor: Type.Optional(Type.String({ maxLength: 1000, description: 'next_cursor of the previous page.' })),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Page size, default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}.` }),
      ),
      expand: ExpandSchema,
      force_fetch: ForceFetchSchema,
    }),
    success: {
      status: 200,
      schema: Type.Object({
        attachments: Type.Array(ATTACHMENT),
        next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
        connection: ConnectionRefSchema,
      }),
    },
    errors: [...DOCUMENT_READ_ERRORS, 'INVALID_CURSOR'],
  });
  return defineEndpoint(contract, async (request) => {
    const { query, params } = request;
    refusePathWordAsServiceId(request, params.id);
    const forceFetch = query.force_fetch === 'true';
    const connection = await readableConnection(request, 'attachment', query.access_token, forceFetch);
    assertAttachedTo(connection, entity, 'read');
    const { pool, config } = request.server.services;
    const document = await documentOf(pool, config.readLimits.statementTimeoutMs, connection, entity, params.id, forceFetch);
    const withRaw = wantsPlatformData(query.expand);
    const page = await listPage(pool, connection, 'attachment', query, withRaw, config.readLimits, {
      attached_to_type: entity,
      attached_to_id: document.id,
    });
    // None on a first page: "not synced yet" when attachments never were, rather than "none" (as every list).
    if (page.rows.length === 0 && query.cursor === undefined) await assertEntityRead(pool, connection, 'attachment', forceFetch);
    const presenter = presenterOf(request.server.services);
    return {
      attachments: page.rows.map((row) => served('attachment', row, withRaw, presenter)),
      next_cursor: page.nextCursor,
      connection: connectionRef(connection),
    };
  });
}
