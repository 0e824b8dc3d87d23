/**
 * Opaque keyset cursors: base64url of the next entity's sort value and id.
 * Malformed cursors answer 400 INVALID_CURSOR, never a database error.
 */
import { ServiceError } from '../errors/catalogue.ts';
import { FIRST_INSTANT_MS } from './dates.ts';
import { isUuid } from './uuid.ts';

export interface KeysetPosition {
  createdAt: string;
  id: string;
}

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Date.parse accepts 2024-02-30, hour 24 and year 0; PostgreSQL does not. Only real instants pass. */
export function isRealInstant(text: string): boolean {
  const ms = Date.parse(text);
  return !Number.isNaN(ms) && ms >= FIRST_INSTANT_MS && new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19);
}

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt, id: position.id })).toString('base64url');
}

export function invalidCursor(): ServiceError {
  return new ServiceError(
    'INVALID_CURSOR',
    'The cursor is malformed: pass next_cursor from the previous page unchanged, or omit it for the first page.',
    { source: 'service', field: 'cursor', location: 'query' },
  );
}

export function decodeCursor(raw: string): KeysetPosition {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(raw) || raw.length > 400) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof parsed !== 'object' || parsed === null || !('t' in parsed) || !('id' in parsed)) throw invalidCursor();
  const { t, id } = parsed;
  if (typeof t !== 'string' || typeof id !== 'string' || !TS.test(t) || !isUuid(id) || !isRealInstant(t)) throw invalidCursor();
  return { createdAt: t, id };
}
