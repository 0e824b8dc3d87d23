/**
 * Service ids of synced objects are derived, not allocated: a UUID (v5 layout)
 * from SHA-1 of (connection id, object type, platform id). The same platform
 * record always gets the same id, across syncs and processes, and a link to an
 * object resolves before that object itself is synced.
 */
import { hash } from 'node:crypto';
import type { UnifiedObjectType } from '../model/object-types.ts';

export function serviceId(connectionId: string, type: UnifiedObjectType, platformId: string): string {
  // One-shot hash: a sync derives several ids per record (the record, each object it links to).
  const digest = hash('sha1', `${connectionId}\u0000${type}\u0000${platformId}`, 'buffer');
  digest[6] = ((digest[6] ?? 0) & 0x0f) | 0x50;
  digest[8] = ((digest[8] ?? 0) & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const SERVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the text can be a service id at all (a UUID PostgreSQL accepts); anything else names no record. */
export function isServiceId(value: string): boolean {
  return SERVICE_ID.test(value);
}
