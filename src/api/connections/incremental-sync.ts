import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { getConnector } from '../../platforms/index.ts';
import { objectTypeToEntity } from '../../connections/sync-config.ts';
import { requestSync } from '../../sync/requests.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import type { Queryable } from '../../db/pool.ts';
import { assertUsable } from '../../connections/readiness.ts';
import { assertLinked } from '../../connections/unlinked.ts';
import { AccessTokenQuery } from './schemas.ts';
import { requireTenant } from '../../http/auth.ts';

export const SyncRequestSchema = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Sync run id; see GET /connections/status.' }),
  status: Type.Literal('queued'),
  created_at: Type.String({ format: 'date-time' }),
});

export const contract = defineContract({
  method: 'POST',
  url: '/connections/incremental_sync',
  auth: 'client',
  tags: ['Connections'],
  summary: 'Start an incremental sync now. object_types omitted = all entities, [] = none. INCREMENTAL_SYNC_COMPLETED fires when it finishes.',
  querystring: AccessTokenQuery,
  body: Type.Object(
    {
      object_types: Type.Optional(
        Type.Array(Type.String(), { uniqueItems: true, maxItems: 100, description: 'Upper-case entity names, e.g. BILL, ACCOUNT.' }),
      ),
    },
    { additionalProperties: false },
  ),
  success: {
    status: 200,
    schema: Type.Object({
      success: Type.Boolean({ description: "The reference's answer: true, the run is queued (its details beside it)." }),
      incremental_sync: Type.Object({ ...SyncRequestSchema.properties, object_types: Type.Union([Type.Array(Type.String()), Type.Null()]) }),
    }),
  },
  errors: [
    'MISSING_ACCESS_TOKEN',
    'INVALID_CREDENTIALS',
    'VALIDATION_ERROR',
    'NO_CREDENTIALS',
    'PENDING',
    'LINK_ERROR',
    'NEEDS_UPDATE',
    'CONNECTION_DISABLED',
    'RATE_LIMIT_EXCEEDED',
  ],
});

/**
 * Entities a linked connection's platform syncs; throws the spec's state errors for connections that cannot sync
 * now (never linked: PENDING, LINK_ERROR or NO_CREDENTIALS; then NEEDS_UPDATE, CONNECTION_DISABLED).
 */
export async function syncableEntities(db: Queryable, connection: ConnectionRecord): Promise<string[]> {
  await assertLinked(db, connection);
  assertUsable(connection, '');
  if (connection.platform === null) return [];
  const connector = getConnector(connection.platform);
  return connector === undefined ? [] : Object.keys(connector.objects).map((t) => objectTypeToEntity(t as UnifiedObjectType));
}

export function checkEntities(requested: readonly string[], offered: readonly string[], field: string): void {
  const unknown = requested.filter((e) => !offered.includes(e));
  if (unknown.length > 0) {
    throw new ServiceError(
      'VALIDATION_ERROR',
      `\`${field}\` in the request body names ${unknown.map((u) => `"${u}"`).join(', ')}, not synced for this platform. Allowed: ${offered.join(', ')}.`,
      { source: 'service', field, location: 'body' },
    );
  }
}

export default defineEndpoint(contract, async (request) => {
  const { pool, jobs } = request.server.services;
  const tenant = requireTenant(request);
  const connection = await connectionForAccessToken(pool, tenant, request.query.access_token);
  const offered = await syncableEntities(pool, connection);
  const objectTypes = request.body.object_types ?? null;
  if (objectTypes !== null) checkEntities(objectTypes, offered, 'object_types');
  const run = await requestSync(pool, jobs, connection.id, {
    kind: 'incremental',
    trigger: 'manual',
    details: { object_types: objectTypes },
    requestId: request.id,
  });
  return { success: true, incremental_sync: { id: run.id, status: 'queued' as const, created_at: run.created_at, object_types: objectTypes } };
});
