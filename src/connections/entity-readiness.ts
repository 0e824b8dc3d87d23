/**
 * ENTITY_NOT_READY: a ready connection (its initial sync done) whose stored copy has nothing of one object because
 * that object has never been read in full: one the platform's connector offers since an upgrade, or one the
 * connection's syncConfig.entities leaves out. Asked only when a read finds nothing (an empty first page, an unknown
 * id), so the usual read costs nothing; force_fetch=true answers what is stored.
 */
import type { Queryable } from '../db/pool.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../model/object-types.ts';
import { objectEverRead } from '../sql/sync-objects.ts';
import type { SyncConfig } from './sync-config.ts';
import type { ConnectionRecord } from './types.ts';

export async function assertEntityRead(db: Queryable, connection: ConnectionRecord, type: UnifiedObjectType, forceFetch: boolean): Promise<void> {
  if (forceFetch || connection.readyAt === null || (await objectEverRead(db, connection.id, type))) return;
  const { entity, plural } = OBJECT_TYPES[type];
  const entities = (connection.syncConfig as SyncConfig | null)?.entities;
  const why =
    entities !== undefined && !entities.includes(entity)
      ? `this connection's syncConfig.entities leaves ${entity} out, so its ${plural.replaceAll('_', ' ')} are never synced`
      : `its ${plural.replaceAll('_', ' ')} have not been synced yet; they will be at the next sync (POST /connections/incremental_sync starts one now)`;
  throw new ServiceError('ENTITY_NOT_READY', `The connection is ready, but ${why}. force_fetch=true answers what is stored.`, { source: 'service' });
}
