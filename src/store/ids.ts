/**
 * Service ids of synced objects are derived, not allocated: a UUID (v5 layout)
 * from SHA-1 of (connection id, object type, platform id). The same platform
 * record always gets the same id, across syncs and processes, and a link to an
 * object resolves before that object itself is synced.
 */
import { createHash } from 'node:crypto';
import type { UnifiedObjectType } from '../model/object-types.ts';

export function serviceId(connectionId: string, type: UnifiedObjectType, platformId: string): string {
  const hash = createHash('sha1').update(`${connectionId}\u0000${type}\u0000${platformId}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
