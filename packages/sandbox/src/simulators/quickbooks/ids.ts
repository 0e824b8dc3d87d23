/**
 * QBO ids are numeric strings unique per entity; SANDBOX ids are `<prefix>-<6 digits>` unique per collection. The
 * number is the QBO id (BILL-000123 is Bill 123), and the entity, known from the path or the reference, gives the
 * prefix back, so the mapping needs no table and survives restarts.
 */
import { createHash } from 'node:crypto';
import type { UnifiedObjectType } from '../../../../../src/model/object-types.ts';
import { collectionOf, platformIdFor } from '../../collections.ts';

/** The QBO id of a SANDBOX id; a natural id (no numbered prefix) is kept as it is. */
export function qboId(sandboxId: string): string {
  const numbered = /^[A-Z]+-(\d+)$/.exec(sandboxId);
  return numbered?.[1] === undefined ? sandboxId : String(Number(numbered[1]));
}

/** The SANDBOX id of a QBO id of `type`; null when it is no QBO id (not a positive whole number). */
export function sandboxId(type: UnifiedObjectType, id: string): string | null {
  if (!/^[1-9]\d{0,8}$/.test(id)) return null;
  return platformIdFor(collectionOf(type).prefix, Number(id));
}

/** A realm id as Intuit issues them (16 to 19 digits), stable for an account key. */
export function realmIdOf(accountKey: string): string {
  const digest = createHash('sha256').update(`quickbooks realm ${accountKey}`).digest();
  // 9 followed by 18 digits of the hash's first 64 bits: always 19 digits, never a leading zero.
  const digits = (digest.readBigUInt64BE(0) % 10n ** 18n).toString().padStart(18, '0');
  return `9${digits}`;
}
