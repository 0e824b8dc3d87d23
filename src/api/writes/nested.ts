/**
 * Writes of records kept inside a commerce object, generated from NESTED (src/writes/nested.ts): POST
 * `<parent path>/:id/<field>` adds one, PATCH and DELETE `<parent path>/:id/<field>/:<idParam>` change or remove
 * one (for products: /commerce/products/:id/variants[/:variantId]). Each is a write job on the parent, checked and
 * answered like every write (submitWrite).
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { OBJECT_TYPES } from '../../model/object-types.ts';
import { liveRecord, type StoredRecord } from '../../writes/check-input.ts';
import { ResponseModeSchema, writeBody, type ResponseMode } from '../../writes/input-schemas.ts';
import { AsyncResponseSchema } from '../../writes/job-view.ts';
import {
  entrySchema,
  NESTED,
  nestedDeletedSchema,
  nestedInputSchema,
  nestedJobOperation,
  type NestedKind,
  type NestedOperation,
} from '../../writes/nested.ts';
import { AccessTokenQuery, submitWrite, WRITE_ERRORS, writableConnection } from './submit.ts';
import { refusePathWordAsServiceId } from '../shared/record-id.ts';

type Json = Record<string, unknown>;

const ParentParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 300, description: 'Service id of the parent.' }) });

const nestedParams = (kind: NestedKind): TSchema =>
  Type.Object({
    id: Type.String({ minLength: 1, maxLength: 300, description: `Service id of the ${OBJECT_TYPES[kind.parent].singular.replaceAll('_', ' ')}.` }),
    [kind.idParam]: Type.String({ minLength: 1, maxLength: 300, description: `Id of the ${kind.singular}, as the parent's ${kind.field} serve it.` }),
  });

// Typed loosely like objects.ts's results: the handler answers either shape (200 or 202).
const answerSchema = (kind: NestedKind): TSchema => Type.Object({ [kind.singular]: Type.Unsafe<Json>(entrySchema(kind)) });
const deletedAnswerSchema = (kind: NestedKind): TSchema => Type.Unsafe<Json>(nestedDeletedSchema(kind));

const label = (kind: NestedKind): string => `${OBJECT_TYPES[kind.parent].singular.replaceAll('_', ' ')} ${kind.singular}`;
const tagsOf = (kind: NestedKind): string[] => [OBJECT_TYPES[kind.parent].plural.replaceAll('_', ' ')];

/** The nested record must be one of the stored parent's (410 otherwise, as for an unknown id). */
function refuseUnknownNested(kind: NestedKind, parent: StoredRecord, nestedId: string): void {
  const entries = parent.data[kind.field];
  const known =
    Array.isArray(entries) && entries.some((entry: unknown) => typeof entry === 'object' && entry !== null && 'id' in entry && entry.id === nestedId);
  if (!known) {
    throw new ServiceError('RESOURCE_NOT_FOUND', `No ${kind.singular} with id ${nestedId} in ${OBJECT_TYPES[kind.parent].singular} ${parent.id}.`, {
      source: 'service',
      field: kind.idParam,
      location: 'params',
    });
  }
}

async function parentOf(
  request: Parameters<typeof writableConnection>[0],
  kind: NestedKind,
  op: NestedOperation,
  accessToken: string | undefined,
  id: string,
) {
  refusePathWordAsServiceId(request, id);
  const connection = await writableConnection(request, accessToken, kind.parent, { nested: kind, nestedOp: op });
  const parent = await liveRecord(request.server.services.pool, connection.id, kind.parent, id);
  return { connection, parent };
}

function createEndpoint(kind: NestedKind): Endpoint {
  const contract = defineContract({
    method: 'POST',
    url: `${OBJECT_TYPES[kind.parent].path}/:id/${kind.field}`,
    auth: 'client',
    tags: tagsOf(kind),
    summary: `Create a ${label(kind)}`,
    description: `Passed through to the platform. Required: ${kind.required.join(', ')}. See docs/writes.md.`,
    params: ParentParams,
    querystring: AccessTokenQuery,
    body: writeBody(kind.singular, nestedInputSchema(kind, 'create'), { required: true }),
    success: { status: 200, schema: answerSchema(kind) },
    alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
    errors: [...WRITE_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND'],
  });
  return defineEndpoint(contract, async (request, reply) => {
    const body = request.body as Json & { response_mode?: ResponseMode };
    const { connection, parent } = await parentOf(request, kind, 'create', request.query.access_token, request.params.id);
    return submitWrite(request, reply, {
      connection,
      objectType: kind.parent,
      operation: nestedJobOperation('create'),
      target: parent,
      requestBody: body,
      mode: body.response_mode,
    });
  });
}

function updateEndpoint(kind: NestedKind): Endpoint {
  const contract = defineContract({
    method: 'PATCH',
    url: `${OBJECT_TYPES[kind.parent].path}/:id/${kind.field}/:${kind.idParam}`,
    auth: 'client',
    tags: tagsOf(kind),
    summary: `Update a ${label(kind)}`,
    description: 'A field sent takes the new value, a field left out keeps its value, an array is replaced whole.',
    params: nestedParams(kind),
    querystring: AccessTokenQuery,
    body: writeBody(kind.singular, nestedInputSchema(kind, 'update'), { required: true }),
    success: { status: 200, schema: answerSchema(kind) },
    alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
    errors: [...WRITE_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND'],
  });
  return defineEndpoint(contract, async (request, reply) => {
    const body = request.body as Json & { response_mode?: ResponseMode };
    const params = request.params as Record<string, string>;
    const nestedId = params[kind.idParam] ?? '';
    const { connection, parent } = await parentOf(request, kind, 'update', request.query.access_token, params.id ?? '');
    refuseUnknownNested(kind, parent, nestedId);
    const part = body[kind.singular] as Json;
    if (part.id !== undefined && part.id !== nestedId) {
      throw new ServiceError('VALIDATION_ERROR', `${kind.singular}.id must be the ${kind.idParam} of the path (got ${JSON.stringify(part.id)}).`, {
        source: 'service',
        field: `${kind.singular}.id`,
      });
    }
    return submitWrite(request, reply, {
      connection,
      objectType: kind.parent,
      operation: nestedJobOperation('update'),
      target: parent,
      requestBody: body,
      mode: body.response_mode,
    });
  });
}

function deleteEndpoint(kind: NestedKind): Endpoint {
  const contract = defineContract({
    method: 'DELETE',
    url: `${OBJECT_TYPES[kind.parent].path}/:id/${kind.field}/:${kind.idParam}`,
    auth: 'client',
    tags: tagsOf(kind),
    summary: `Delete a ${label(kind)}`,
    description: `Answers {${kind.deletedKeys.parent}, ${kind.deletedKeys.nested}} once the platform deleted it (or 202 with async_response).`,
    params: nestedParams(kind),
    querystring: Type.Object({ access_token: Type.Optional(Type.String()), response_mode: ResponseModeSchema }),
    body: Type.Object({ response_mode: ResponseModeSchema }, { additionalProperties: false }),
    success: { status: 200, schema: deletedAnswerSchema(kind) },
    alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
    errors: [...WRITE_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND'],
  });
  return defineEndpoint(contract, async (request, reply) => {
    const params = request.params as Record<string, string>;
    const nestedId = params[kind.idParam] ?? '';
    const { connection, parent } = await parentOf(request, kind, 'delete', request.query.access_token, params.id ?? '');
    refuseUnknownNested(kind, parent, nestedId);
    const mode = request.body.response_mode ?? request.query.response_mode;
    return submitWrite(request, reply, {
      connection,
      objectType: kind.parent,
      operation: nestedJobOperation('delete'),
      target: parent,
      requestBody: {},
      mode,
    });
  });
}

export const nestedWriteEndpoints: Endpoint[] = Object.values(NESTED).flatMap((kind) => [
  createEndpoint(kind),
  updateEndpoint(kind),
  deleteEndpoint(kind),
]);
