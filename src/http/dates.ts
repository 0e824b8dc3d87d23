/**
 * Dates and timestamps a client may send, checked against what PostgreSQL
 * stores: years 0001 to 9999 (it has no year 0: `0000-01-01` used to pass
 * validation and answer 500), a day that exists, and a UTC offset of at most
 * ±15:59 (its limit; ISO 8601 syntax allows ±23:59). The request formats
 * `date`, `date-time` and `date-or-date-time` and the cursors all use these.
 */

/** 0001-01-01T00:00:00Z, PostgreSQL's first instant of the Common Era (Date.UTC would read year 1 as 1901). */
export const FIRST_INSTANT_MS = Date.parse('0001-01-01T00:00:00Z');

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 3339 date-time as ajv-formats reads it (T, t or a space; seconds required; zone required), offsets within ±15:59. */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?([Zz]|([+-])(0\d|1[0-5]):?([0-5]\d))$/;
/** The writes' looser timestamp: seconds optional, upper-case T and a zone required. */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-](0\d|1[0-5]):?[0-5]\d)$/;

/** YYYY-MM-DD naming a day that exists (no 2026-02-30), in years 0001 to 9999. */
export function isStorableDate(text: string): boolean {
  const match = DAY.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An RFC 3339 date-time PostgreSQL stores as sent; second 60 only where it is a leap second (23:59:60 in UTC). */
export function isStorableDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (match === null || !isStorableDate(match[1] ?? '')) return false;
  if (match[4] !== '60') return true;
  const sign = match[7] === '-' ? -1 : 1;
  const utcMinutes = Number(match[2]) * 60 + Number(match[3]) - sign * (Number(match[8] ?? 0) * 60 + Number(match[9] ?? 0));
  return ((utcMinutes % 1440) + 1440) % 1440 === 23 * 60 + 59;
}

/** A date (YYYY-MM-DD) or an ISO 8601 date-time with a zone, on a day that exists. */
export function isDateOrTimestamp(text: string): boolean {
  const timestamp = TIMESTAMP.exec(text);
  return isStorableDate(timestamp === null ? text : (timestamp[1] ?? ''));
}
