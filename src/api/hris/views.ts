/**
 * GET /hris/departments and /hris/organizations with their fetches: stored objects of another resource served in the
 * reference's HRIS fields (./shapes.ts). Paging, readiness, product and platform checks are the stored resource's:
 * a platform without departments answers these as it answers /accounting/departments.
 */
import { Type, type TObject } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { UnixMillisParam } from '../../http/time-params.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import { fetchRecord } from '../../sql/list-records.ts';
import { boundedRead } from '../../db/bounded-read.ts';
import { assertEntityRead } from '../../connections/entity-readiness.ts';
import { presenterOf, served } from '../../store/served.ts';
import { ConnectionRefSchema, connectionRef } from '../shared/envelope.ts';
import { refusePathWordAsServiceId } from '../shared/record-id.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, listPage } from '../data/list-query.ts';
import { ExpandSchema, ForceFetchSchema, READ_ERRORS, readableConnection, wantsPlatformData } from '../data/read.ts';
import { HrisDepartmentSchema, HrisOrganizationSchema, hrisDepartment, hrisOrganization } from './shapes.ts';

type Json = Record<string, unknown>;

interface HrisView {
  /** The stored resource the view serves. */
  stored: UnifiedObjectType;
  path: string;
  singular: string;
  plural: string;
  schema: TObject;
  present(object: Json): Json;
}

const VIEWS: readonly HrisView[] = [
  {
    stored: 'department',
    path: '/hris/departments',
    singular: 'department',
    plural: 'departments',
    schema: HrisDepartmentSchema,
    present: hrisDepartment,
  },
  {
    stored: 'company_info',
    path: '/hris/organizations',
    singular: 'organization',
    plural: 'organizations',
    schema: HrisOrganizationSchema,
    present: hrisOrganization,
  },
];

function listView(view: HrisView): Endpoint {
  const contract = defineContract({
    method: 'GET',
    url: view.path,
    auth: 'client',
    tags: ['HRIS'],
    summary: `List ${view.plural}`,
    description: `Keyset-paged, most recently updated first; the stored ${view.stored.replaceAll('_', ' ')} in the reference's HRIS fields.`,
    querystring: Type.Object({
      access_token: Type.Optional(Type.String({ description: 'Connection access token (required).' })),
      cursor: Type.Optional(Type.String({ maxLength: 1000, description: 'next_cursor of the previous page.' })),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Page size, default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}.` }),
      ),
      expand: ExpandSchema,
      updated_at_min: Type.Optional(UnixMillisParam('Inclusive.')),
      updated_at_max: Type.Optional(UnixMillisParam('Inclusive.')),
      last_synced_at_min: Type.Optional(UnixMillisParam('Inclusive.')),
      force_fetch: ForceFetchSchema,
    }),
    success: {
      status: 200,
      schema: Type.Object({
        [view.plural]: Type.Array(view.schema),
        next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
        connection: ConnectionRefSchema,
      }),
    },
    errors: [...READ_ERRORS, 'INVALID_CURSOR', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
  });
  return defineEndpoint(contract, async (request) => {
    const { query } = request;
    const connection = await readableConnection(request, view.stored, query.access_token, query.force_fetch === 'true');
    const withRaw = wantsPlatformData(query.expand);
    const { pool, config } = request.server.services;
    const found = await listPage(pool, connection, view.stored, query, withRaw, config.readLimits);
    if (found.rows.length === 0 && query.cursor === undefined) await assertEntityRead(pool, connection, view.stored, query.force_fetch === 'true');
    const presenter = presenterOf(request.server.services);
    return {
      [view.plural]: found.rows.map((row) => view.present(served(view.stored, row, withRaw, presenter))),
      next_cursor: found.nextCursor,
      connection: connectionRef(connection),
    };
  });
}

function fetchView(view: HrisView): Endpoint {
  const contract = defineContract({
    method: 'GET',
    url: `${view.path}/:id`,
    auth: 'client',
    tags: ['HRIS'],
    summary: `Fetch one ${view.singular}`,
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 300, description: 'Service id, or the platform id with id_type=platform.' }) }),
    querystring: Type.Object({
      access_token: Type.Optional(Type.String()),
      id_type: Type.Optional(Type.Union([Type.Literal('service'), Type.Literal('platform')], { description: 'Default service.' })),
      expand: ExpandSchema,
      force_fetch: ForceFetchSchema,
    }),
    success: { status: 200, schema: Type.Object({ [view.singular]: view.schema, connection: ConnectionRefSchema }) },
    errors: [...READ_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
  });
  return defineEndpoint(contract, async (request) => {
    const { query } = request;
    const { id } = request.params;
    if (query.id_type !== 'platform') refusePathWordAsServiceId(request, id);
    const connection = await readableConnection(request, view.stored, query.access_token, query.force_fetch === 'true');
    const withRaw = wantsPlatformData(query.expand);
    const { pool, config } = request.server.services;
    const row = await boundedRead(pool, config.readLimits.statementTimeoutMs, { field: 'id', location: 'params' }, (db) =>
      fetchRecord(db, connection.id, view.stored, query.id_type ?? 'service', id, withRaw),
    );
    if (row === null) {
      await assertEntityRead(pool, connection, view.stored, query.force_fetch === 'true');
      throw new ServiceError(
        'RESOURCE_NOT_FOUND',
        `No ${view.singular} with ${query.id_type === 'platform' ? 'platform id' : 'id'} ${id} in this connection.`,
        {
          source: 'service',
          field: 'id',
          location: 'params',
        },
      );
    }
    return {
      [view.singular]: view.present(served(view.stored, row, withRaw, presenterOf(request.server.services))),
      connection: connectionRef(connection),
    };
  });
}

export const hrisViewEndpoints: Endpoint[] = VIEWS.flatMap((view) => [listView(view), fetchView(view)]);
