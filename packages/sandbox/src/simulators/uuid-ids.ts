/**
 * Ids for platforms whose ids are UUIDs (Xero); SANDBOX's are short text ("BILL-000123"). The UUID of a SANDBOX id is
 * its UTF-8 bytes padded with zeros into the UUID's 16 bytes, so an id the connector sends back (a GET by id, a
 * ContactID or an AccountID in a write) names its SANDBOX record without any state kept between calls.
 */
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What a SANDBOX id looks like (printable ASCII, no padding zeros), so a foreign UUID decodes to nothing. */
const SANDBOX_ID = /^[\x21-\x7e]{1,16}$/;

function uuidOf(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The UUID of a SANDBOX id (at most 16 bytes). */
export function uuidOfId(sandboxId: string): string {
  const bytes = Buffer.from(sandboxId, 'utf8');
  if (bytes.byteLength > 16) throw new Error(`SANDBOX id ${sandboxId} is too long for a UUID`);
  const padded = new Uint8Array(16);
  padded.set(bytes);
  return uuidOf(padded);
}

/** The SANDBOX id a UUID stands for, or null when it is no UUID of ours. */
export function idOfUuid(uuid: string): string | null {
  if (!UUID.test(uuid)) return null;
  const bytes = Buffer.from(uuid.replaceAll('-', ''), 'hex');
  const end = bytes.indexOf(0);
  const text = bytes.subarray(0, end < 0 ? 16 : end).toString('utf8');
  // Nothing but zeros after the id.
  if (end >= 0 && bytes.subarray(end).some((b) => b !== 0)) return null;
  return SANDBOX_ID.test(text) ? text : null;
}

/** A stable UUID for any text (tenant ids, connection ids): the first 16 bytes of its SHA-256, as a version 4 UUID. */
export function hashedUuid(text: string): string {
  const bytes = createHash('sha256').update(text).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return uuidOf(bytes);
}
