/**
 * Ground truth for fault tests: the platform's books as unified objects, read
 * through the connector itself, and the stored copy, in comparable form.
 */
import type { Pool } from '../../src/db/pool.ts';
import { OBJECT_TYPES, UNIFIED_OBJECT_TYPES, type UnifiedObjectType } from '../../src/model/object-types.ts';
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
    'SELECT object_type, platform_id, data FROM records WHERE connection_id = $1 AND deleted_at IS NULL',
    [connectionId],
  );
  return new Map(result.rows.map((r) => [`${r.object_type}:${r.platform_id}`, canonicalJson(r.data)]));
}

/**
 * The entity events that must follow from the books moving from `before` to `after`, sorted. `before` is null for a connection's initial
 * download, which announces what it stores with INITIAL_UPDATE instead (docs/sync.md): no entity event.
 */
export function expectedEvents(before: Snapshot | null, after: Snapshot): string[] {
  if (before === null) return [];
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

/**
 * The entity events stored for the connection after `marker` (database clock), as `CODE type:platform_id`, sorted:
 * comparable with expectedEvents.
 */
export async function entityEventsSince(pool: Pool, connectionId: string, marker: Date): Promise<string[]> {
  const result = await pool.query<{ code: string; type: string; payload: Record<string, unknown> }>(
    `SELECT code, type, payload FROM events WHERE connection_id = $1 AND created_at > $2 AND type NOT IN ('CONNECTION', 'JOB')`,
    [connectionId, marker],
  );
  return result.rows
    .map((row) => {
      const objectType = row.type.toLowerCase() as UnifiedObjectType;
      const object = row.payload[OBJECT_TYPES[objectType].singular] as { platform_id: string };
      return `${row.code} ${objectType}:${object.platform_id}`;
    })
    .sort();
}

/** Every bill on the platform with its memo, read through the connector like platformSnapshot. */
export async function platformBills(connector: Connector, ctx: ConnectorContext): Promise<{ platformId: string; memo: string | null }[]> {
  const object = connector.objects.bill;
  if (object === undefined) throw new Error(`${connector.id} has no bills`);
  const bills: { platformId: string; memo: string | null }[] = [];
  let pageToken: string | null = null;
  do {
    const page = await object.handler.read(ctx, { since: null, window: null, pageToken });
    for (const record of page.records) {
      if (record.deleted === true) continue;
      bills.push({ platformId: record.platformId, memo: typeof record.raw.Memo === 'string' ? record.raw.Memo : null });
    }
    pageToken = page.nextPageToken;
  } while (pageToken !== null);
  return bills;
}
