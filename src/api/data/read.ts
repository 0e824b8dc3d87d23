/**
 * The shared list and fetch operations of every readable resource
 * (accounting-resources.md, "Shared list operation" and "Shared fetch
 * operation"), built from the model registry: one contract per resource and
 * operation, served from the stored copy.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import type { ConnectionCache } from '../../connections/access-token-cache.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { assertReadable } from '../../connections/readiness.ts';
import { assertLinked } from '../../connections/unlinked.ts';
import { assertEntityRead } from '../../connections/entity-readiness.ts';
import { assertProductAllowed } from '../../tenants/products.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import { MODEL } from '../../model/index.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../../model/object-types.ts';
import { getConnector } from '../../platforms/index.ts';
import { fetchRecord } from '../../sql/list-records.ts';
import { boundedRead } from '../../db/bounded-read.ts';
import { holdLargeAnswer } from '../../db/api-pool.ts';
import { ConnectionRefSchema, connectionRef } from '../shared/envelope.ts';
import { refusePathWordAsServiceId } from '../shared/record-id.ts';
import type { Pool } from '../../db/pool.ts';
import type { AuthenticatedTenant } from '../../tenants/types.ts';
import { presenterOf, served } from '../../store/served.ts';
import { isReportType, listPage, ListQuerySchema, type ListScope } from './list-query.ts';
import { AsyncResponseSchema, asyncResponse } from '../../writes/job-view.ts';
import { finishedReadJob } from '../../writes/read-job.ts';
import { JOB_ID_HEADER } from '../writes/submit.ts';
import { requireTenant } from '../../http/auth.ts';

export const ForceFetchSchema = Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true answers even before the initial sync has finished.' }));
export const ExpandSchema = Type.Optional(Type.Union([Type.Literal('platform_data'), Type.Array(Type.Literal('platform_data'))], { description: 'platform_data adds the raw platform record.' }));

export function wantsPlatformData(expand: 'platform_data' | 'platform_data'[] | undefined): boolean {
  return expand !== undefined && (expand === 'platform_data' || expand.includes('platform_data'));
}

/** The connection of the request, checked for readiness and for the platform supporting this read. */
export async function readableConnection(
  request: { server: { services: { pool: Pool; connectionCache: ConnectionCache } }; tenant: AuthenticatedTenant | null },
  type: UnifiedObjectType, accessToken: string | undefined, forceFetch: boolean,
): Promise<ConnectionRecord> {
  const tenant = requireTenant(request);
  assertProductAllowed(tenant, type);
  const { pool, connectionCache } = request.server.services;
  const connection = await connectionForAccessToken(pool, tenant, accessToken, connectionCache);
  await assertLinked(pool, connection);
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  if (connection.platform !== null && connector?.objects[type]?.capabilities.read !== true) {
    throw new ServiceError('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM', `${OBJECT_TYPES[type].plural} are not available on ${connection.platform}; see docs/platforms.md.`, { source: 'service' });
  }
  assertReadable(connection, forceFetch);
  return connection;
}

export const READ_ERRORS = ['MISSING_ACCESS_TOKEN', 'INVALID_CREDENTIALS', 'VALIDATION_ERROR', 'PRODUCT_NOT_ALLOWED', 'PRODUCT_NOT_READY', 'ENTITY_NOT_READY', 'NEEDS_UPDATE', 'NO_CREDENTIALS', 'PENDING', 'LINK_ERROR',
  'CONNECTION_DISABLED', 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM', 'RATE_LIMIT_EXCEEDED'] as const;

/**
 * The records of a type that one other path serves (the attachments of bills under /accounting/bills/attachments):
 * those whose stored object has the `scope` fields, on connections whose platform passes `check`.
 */
export interface ReadView {
  path: string;
  /** What the records are called in summaries and messages ("bill attachment"). */
  singular: string;
  plural: string;
  scope: ListScope;
  /** Throws when the connection's platform does not serve this view (before anything is read). */
  check(connection: ConnectionRecord): void;
}

export function listEndpoint(type: UnifiedObjectType, view?: ReadView): Endpoint {
  const names = OBJECT_TYPES[type];
  const schema: TSchema = MODEL[type].schema;
  // Widened: the handler may also answer the async response (statements).
  const page: TSchema = Type.Object({
    [names.plural]: Type.Array(schema),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
    connection: ConnectionRefSchema,
  });
  const contract = defineContract({
    method: 'GET', url: view?.path ?? names.path, auth: 'client', tags: [names.plural.replaceAll('_', ' ')],
    summary: `List ${view?.plural ?? names.plural.replaceAll('_', ' ')}`,
    description: 'Keyset-paged; default sort updated_at DESC. filter and sort accept the F fields (docs/filtering.md).',
    querystring: ListQuerySchema(type),
    success: { status: 200, schema: page },
    // The monthly statements also answer response_mode=async with a job holding the answer (docs/reference.md).
    ...(isReportType(type) ? { alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }] } : {}),
    errors: [...READ_ERRORS, 'INVALID_CURSOR', 'INVALID_FILTER', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
  });
  return defineEndpoint(contract, async (request, reply) => {
    const query = request.query as Record<string, unknown> & {
      access_token?: string; force_fetch?: 'true' | 'false'; expand?: 'platform_data' | 'platform_data'[]; response_mode?: 'async' | 'prefer_sync';
    };
    const connection = await readableConnection(request, type, query.access_token, query.force_fetch === 'true');
    view?.check(connection);
    const withRaw = wantsPlatformData(query.expand);
    const { pool, config } = request.server.services;
    if (withRaw) await holdUntilSent(request, reply, connection.organizationId);
    const found = await listPage(pool, connection, type, query, withRaw, config.readLimits, view?.scope);
    // Nothing on a first page: say so when the object has never been synced, rather than "none".
    if (found.rows.length === 0 && query.cursor === undefined) await assertEntityRead(pool, connection, type, query.force_fetch === 'true');
    const presenter = presenterOf(request.server.services);
    const answer = { [names.plural]: found.rows.map((row) => served(type, row, withRaw, presenter)), next_cursor: found.nextCursor, connection: connectionRef(connection) };
    if (query.response_mode !== 'async' || !isReportType(type)) return answer;
    // The job keeps the answer as the synchronous read serializes it (the route's own 200 schema).
    const text = reply.serialize(answer);
    const body: unknown = JSON.parse(typeof text === 'string' ? text : new TextDecoder().decode(text));
    const job = await finishedReadJob(request.server.services, connection, type, { method: 'GET', path: withoutAccessToken(request.url), body: null }, { status_code: 200, body });
    void reply.header(JOB_ID_HEADER, job.id);
    void reply.code(202);
    return asyncResponse(job, config.publicUrl);
  });
}

/**
 * A page with platform data (up to LIST_PLATFORM_DATA_MAX_BYTES) costs CPU to parse and to serialise, which the
 * organisation's connection slots do not cover: one of its large-answer slots is held from here until the answer has
 * been sent or the client has gone (issue 32).
 */
export async function holdUntilSent(request: FastifyRequest, reply: FastifyReply, organizationId: string): Promise<void> {
  const release = await holdLargeAnswer(request.server.services.pool, organizationId);
  // The answer's size paces the organisation's next large answer (src/db/organization-gate.ts).
  reply.raw.once('close', () => {
    // Fastify's own header list: it writes the headers with writeHead, so the raw response's list never holds them.
    release(Number(reply.getHeader('content-length') ?? 0));
  });
}

/** The request's path and query without the access token, which a job never keeps. */
function withoutAccessToken(url: string): string {
  const parsed = new URL(url, 'http://localhost');
  parsed.searchParams.delete('access_token');
  return `${parsed.pathname}${parsed.search}`;
}

export function fetchEndpoint(type: UnifiedObjectType, view?: ReadView): Endpoint {
  const names = OBJECT_TYPES[type];
  const singular = view?.singular ?? names.singular.replaceAll('_', ' ');
  // The registry's schemas differ per type; the contract is checked per resource by the response-schema tests.
  const schema: TSchema = MODEL[type].schema;
  const contract = defineContract({
    method: 'GET', url: `${view?.path ?? names.path}/:id`, auth: 'client', tags: [names.plural.replaceAll('_', ' ')],
    summary: `Fetch one ${singular}`,
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 300, description: 'Service id, or the platform id with id_type=platform.' }) }),
    querystring: Type.Object({
      access_token: Type.Optional(Type.String()),
      id_type: Type.Optional(Type.Union([Type.Literal('service'), Type.Literal('platform')], { description: 'Default service.' })),
      expand: ExpandSchema,
      force_fetch: ForceFetchSchema,
    }),
    success: { status: 200, schema: Type.Object({ [names.singular]: schema, connection: ConnectionRefSchema }) },
    errors: [...READ_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
  });
  return defineEndpoint(contract, async (request) => {
    const query = request.query;
    const { id } = request.params;
    // First, as for any unknown path: before the connection is even looked up.
    if (query.id_type !== 'platform') refusePathWordAsServiceId(request, id);
    const connection = await readableConnection(request, type, query.access_token, query.force_fetch === 'true');
    view?.check(connection);
    const withRaw = wantsPlatformData(query.expand);
    const { pool, config } = request.server.services;
    const found = await boundedRead(pool, config.readLimits.statementTimeoutMs, { field: 'id', location: 'params' },
      (db) => fetchRecord(db, connection.id, type, query.id_type ?? 'service', id, withRaw));
    const row = found !== null && Object.entries(view?.scope ?? {}).every(([field, value]) => found.data[field] === value) ? found : null;
    if (row === null) {
      await assertEntityRead(pool, connection, type, query.force_fetch === 'true');
      throw new ServiceError('RESOURCE_NOT_FOUND', `No ${singular} with ${query.id_type === 'platform' ? 'platform id' : 'id'} ${id} in this connection.`, { source: 'service', field: 'id', location: 'params' });
    }
    return { [names.singular]: served(type, row, withRaw, presenterOf(request.server.services)), connection: connectionRef(connection) };
  });
}

/**
 * A resource the reference serves as one object per connection (GET /accounting/company_info → {company_info,
 * connection}): the connection's live record of the type, no list or fetch by id (docs/reference.md).
 */
export function singleObjectEndpoint(type: UnifiedObjectType): Endpoint {
  const names = OBJECT_TYPES[type];
  const schema: TSchema = MODEL[type].schema;
  const contract = defineContract({
    method: 'GET', url: names.path, auth: 'client', tags: [names.plural.replaceAll('_', ' ')],
    summary: `The connection's ${names.singular.replaceAll('_', ' ')}`,
    description: 'One object per connection, as the reference serves it.',
    querystring: Type.Object({
      access_token: Type.Optional(Type.String()),
      expand: ExpandSchema,
      force_fetch: ForceFetchSchema,
    }),
    success: { status: 200, schema: Type.Object({ [names.singular]: schema, connection: ConnectionRefSchema }) },
    errors: [...READ_ERRORS, 'RESOURCE_NOT_FOUND', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
  });
  return defineEndpoint(contract, async (request) => {
    const query = request.query;
    const connection = await readableConnection(request, type, query.access_token, query.force_fetch === 'true');
    const withRaw = wantsPlatformData(query.expand);
    const { pool, config } = request.server.services;
    const page = await listPage(pool, connection, type, { limit: 1 }, withRaw, config.readLimits);
    const row = page.rows[0];
    if (row === undefined) {
      await assertEntityRead(pool, connection, type, query.force_fetch === 'true');
      throw new ServiceError('RESOURCE_NOT_FOUND', `This connection has no ${names.singular.replaceAll('_', ' ')} stored${connection.readyAt === null ? ' yet: its initial sync has not read it' : ''}.`, { source: 'service' });
    }
    return { [names.singular]: served(type, row, withRaw, presenterOf(request.server.services)), connection: connectionRef(connection) };
  });
}

