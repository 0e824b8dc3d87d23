/**
 * The shared write operations (accounting-resources.md, "Shared write
 * operations") of every writable resource, generated from WRITABLE: POST
 * creates, PATCH changes the fields sent (arrays replaced whole), DELETE
 * removes. Bodies are checked against the stored copy before anything is
 * queued (src/writes/check-write.ts, run by submitWrite for every write); the
 * write itself runs as a job (src/writes).
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../http/contract.ts';
import { MODEL } from '../../model/index.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../../model/object-types.ts';
import { liveRecord } from '../../writes/check-input.ts';
import { objectInputSchema, ResponseModeSchema, writeBody, type ResponseMode } from '../../writes/input-schemas.ts';
import { deletedDescription, deletedSchema } from '../../writes/deleted-answers.ts';
import { AsyncResponseSchema } from '../../writes/job-view.ts';
import { WRITABLE } from '../../writes/writable.ts';
import { AccessTokenQuery, IdParams, submitWrite, WRITE_ERRORS, writableConnection } from './submit.ts';
import { refusePathWordAsServiceId } from '../shared/record-id.ts';

type Json = Record<string, unknown>;

function describeRequired(type: UnifiedObjectType): string {
  const required = WRITABLE[type]?.required ?? [];
  return required.length === 0 ? 'No field is required.' : `Required: ${required.join(', ')} (nested ones when their array is sent).`;
}

const tagOf = (type: UnifiedObjectType): string[] => [OBJECT_TYPES[type].plural.replaceAll('_', ' ')];
const label = (type: UnifiedObjectType): string => OBJECT_TYPES[type].singular.replaceAll('_', ' ');

function createEndpoint(type: UnifiedObjectType): Endpoint {
  const { singular, path } = OBJECT_TYPES[type];
  const result: TSchema = Type.Object({ [singular]: MODEL[type].schema });
  const contract = defineContract({
    method: 'POST',
    url: path,
    auth: 'client',
    tags: tagOf(type),
    summary: `Create a ${label(type)}`,
    description: `Passed through to the platform. ${describeRequired(type)} See docs/writes.md.`,
    querystring: AccessTokenQuery,
    body: writeBody(singular, objectInputSchema(type, 'create'), { required: true }),
    success: { status: 200, schema: result },
    alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
    errors: WRITE_ERRORS,
  });
  return defineEndpoint(contract, async (request, reply) => {
    const body = request.body as Json & { response_mode?: ResponseMode };
    const connection = await writableConnection(request, request.query.access_token, type, { op: 'create' });
    // Numbers, ledger rules and references are checked by submitWrite, for every write alike.
    return submitWrite(request, reply, {
      connection,
      objectType: type,
      operation: 'create',
      target: null,
      requestBody: body,
      mode: body.response_mode,
    });
  });
}

function updateEndpoint(type: UnifiedObjectType): Endpoint {
  const { singular, path } = OBJECT_TYPES[type];
  const result: TSchema = Type.Object({ [singular]: MODEL[type].schema });
  const contract = defineContract({
    method: 'PATCH',
    url: `${path}/:id`,
    auth: 'client',
    tags: tagOf(type),
    summary: `Update a ${label(type)}`,
    description: 'A field sent takes the new value, a field left out keeps its value, an array (line_items, …) is replaced whole.',
    params: IdParams,
    querystring: AccessTokenQuery,
    body: writeBody(singular, { ...objectInputSchema(type, 'update'), minProperties: 1 }, { required: true }),
    success: { status: 200, schema: result },
    alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
    errors: [...WRITE_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND'],
  });
  return defineEndpoint(contract, async (request, reply) => {
    const body = request.body as Json & { response_mode?: ResponseMode };
    refusePathWordAsServiceId(request, request.params.id);
    const connection = await writableConnection(request, request.query.access_token, type, { op: 'update' });
    const target = await liveRecord(request.server.services.pool, connection.id, type, request.params.id);
    // The same numbers, ledger rules and reference checks as a create (submitWrite), on the fields sent.
    return submitWrite(request, reply, { connection, objectType: type, operation: 'update', target, requestBody: body, mode: body.response_mode });
  });
}

function deleteEndpoint(type: UnifiedObjectType): Endpoint {
  const { path } = OBJECT_TYPES[type];
  // Typed loosely like the other results: the handler answers either shape (200 or 202).
  const deleted: TSchema = deletedSchema(type);
  const contract = defineContract({
    method: 'DELETE',
    url: `${path}/:id`,
    auth: 'client',
    tags: tagOf(type),
    summary: `Delete a ${label(type)}`,
    description: `Answers ${deletedDescription(type)} once the platform deleted it (or 202 with async_response).`,
    params: IdParams,
    querystring: Type.Object({ access_token: Type.Optional(Type.String()), response_mode: ResponseModeSchema }),
    body: Type.Object({ response_mode: ResponseModeSchema }, { additionalProperties: false }),
    success: { status: 200, schema: deleted },
    alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
    errors: [...WRITE_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND'],
  });
  return defineEndpoint(contract, async (request, reply) => {
    refusePathWordAsServiceId(request, request.params.id);
    const connection = await writableConnection(request, request.query.access_token, type, { op: 'delete' });
    const target = await liveRecord(request.server.services.pool, connection.id, type, request.params.id);
    const mode = request.body.response_mode ?? request.query.response_mode;
    return submitWrite(request, reply, { connection, objectType: type, operation: 'delete', target, requestBody: {}, mode });
  });
}

export const objectWriteEndpoints: Endpoint[] = (Object.keys(WRITABLE) as UnifiedObjectType[]).flatMap((type) => {
  const operations = WRITABLE[type]?.operations ?? [];
  return [
    ...(operations.includes('create') ? [createEndpoint(type)] : []),
    ...(operations.includes('update') ? [updateEndpoint(type)] : []),
    ...(operations.includes('delete') ? [deleteEndpoint(type)] : []),
  ];
});
