/**
 * Ground truth for fault tests: the platform's books as unified objects, read
 * through the connector itself, and the stored copy, in comparable form.
 */
import type { Pool } from '../../src/db/pool.ts';
import { UNIFIED_OBJECT_TYPES, type UnifiedObjectType } from '../../src/model/object-types.ts';
import type { Connector, ConnectorContext } from '../../src/platforms/connector.ts';
import { serviceId } from '../../src/store/ids.ts';
import { canonicalJson } from '../../src/sync/hash.ts';

/** type:platform_id → canonical JSON of the unified object. */
export type Snapshot = Map<string, string>;

export async function platformSnapshot(connector: Connector, ctx: ConnectorContext): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  for (const type of UNIFIED_OBJECT_TYPES) {
    const object = connector.objects[type];
    if (object?.capabilities.read !== true) continue;
    let pageToken: string | null = null;
    do {
      const page = await object.handler.read(ctx, { since: null, window: null, pageToken });
      for (const record of page.records) {
        if (record.deleted === true) continue;
        const data = { id: serviceId(ctx.connectionId, type, record.platformId), ...object.handler.map(record, ctx), platform_id: record.platformId };
        snapshot.set(`${type}:${record.platformId}`, canonicalJson(data));
      }
      pageToken = page.nextPageToken;
    } while (pageToken !== null);
  }
  return snapshot;
}

export async function storedSnapshot(pool: Pool, connectionId: string): Promise<Snapshot> {
  const result = await pool.query<{ object_type: string; platform_id: string; data: unknown }>(
    'SELECT object_type, platform_id, data FROM records WHERE connection_id = $1 AND deleted_at IS NULL', [connectionId]);
  return new Map(result.rows.map((r) => [`${r.object_type}:${r.platform_id}`, canonicalJson(r.data)]));
}

/** The entity events that must follow from the books moving from `before` to `after`. */
export function expectedEvents(before: Snapshot, after: Snapshot): string[] {
  const events: string[] = [];
  const entity = (key: string) => {
    const type = key.slice(0, key.indexOf(':')) as UnifiedObjectType;
    return type.toUpperCase();
  };
  for (const [key, value] of after) {
    const old = before.get(key);
    if (old === undefined) events.push(`${entity(key)}_CREATED ${key}`);
    else if (old !== value) events.push(`${entity(key)}_UPDATED ${key}`);
  }
  for (const key of before.keys()) if (!after.has(key)) events.push(`${entity(key)}_DELETED ${key}`);
  return events.sort();
}

export function diffSnapshots(expected: Snapshot, actual: Snapshot): string[] {
  const problems: string[] = [];
  for (const [key, value] of expected) {
    const got = actual.get(key);
    if (got === undefined) problems.push(`missing ${key}`);
    else if (got !== value) problems.push(`different ${key}`);
  }
  for (const key of actual.keys()) if (!expected.has(key)) problems.push(`extra ${key}`);
  return problems;
}
