import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { withTransaction } from '../../db/pool.ts';
import { connectionForId } from '../../connections/connections.ts';
import { holdSyncLockForTransaction } from '../../sql/sync-locks.ts';
import { ConnectionIdParams } from './schemas.ts';
import { requireTenant } from '../../http/auth.ts';
import { deleteConnection } from '../../sql/delete-connection.ts';

export const contract = defineContract({
  method: 'DELETE',
  url: '/connections/:id',
  auth: 'client',
  tags: ['Connections'],
  summary: 'Delete a connection and everything stored for it. Fails with 409 while a sync of it runs.',
  params: ConnectionIdParams,
  success: { status: 200, schema: Type.Object({ success: Type.Literal(true), connection_id: Type.String({ format: 'uuid' }) }) },
  errors: ['VALIDATION_ERROR', 'INVALID_CREDENTIALS', 'RESOURCE_NOT_FOUND', 'SYNC_IN_PROGRESS', 'RATE_LIMIT_EXCEEDED'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool } = request.server.services;
  const tenant = requireTenant(request);
  await withTransaction(pool, async (db) => {
    const connection = await connectionForId(db, tenant, request.params.id, { forUpdate: true });
    // Holding the sync lock until commit also keeps a sync from starting before the delete lands.
    if (!(await holdSyncLockForTransaction(db, connection.id))) {
      throw new ServiceError(
        'SYNC_IN_PROGRESS',
        'A sync of this connection is running; delete it after the sync finishes (see GET /connections/status).',
        { source: 'service' },
      );
    }
    await deleteConnection(db, connection.id);
  });
  return { success: true as const, connection_id: request.params.id };
});
