/** Xero's dates on the wire: `/Date(ms+0000)/` in JSON answers, ISO text or YYYY-MM-DD in requests and filters. */

const MS_DATE = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;
const ISO_NO_ZONE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/** Epoch milliseconds of a Xero date (either form), or null. Text without a zone is UTC, as Xero reads it. */
export function xeroMillis(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = MS_DATE.exec(value);
  if (ms !== null) return Number(ms[1]);
  const iso = ISO_NO_ZONE.test(value) ? `${value.length === 10 ? `${value}T00:00:00` : value}Z` : value;
  const parsed = Date.parse(iso);
  return Number.isNaN(parsed) ? null : parsed;
}

/** `/Date(ms+0000)/` of an ISO time or a YYYY-MM-DD day (midnight UTC). */
export function msDate(iso: string): string {
  return `/Date(${xeroMillis(iso) ?? 0}+0000)/`;
}

/** `2025-06-15T00:00:00`: the DateString Xero sends beside a document's Date. */
export function dateString(day: string): string {
  return `${day.slice(0, 10)}T00:00:00`;
}
