/**
 * Xero's dates: JSON answers carry Microsoft JSON dates (`/Date(1539993600000+0000)/`,
 * milliseconds since the epoch in UTC, the offset for display only) and, on some
 * records, ISO text without a zone (`2018-10-20T00:00:00`, UTC). Requests take
 * `YYYY-MM-DD`.
 */

const MS_DATE = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;
const ISO_NO_ZONE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/** Epoch milliseconds of a Xero date, or null when absent or unreadable. */
export function xeroMillis(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = MS_DATE.exec(value);
  if (ms !== null) return Number(ms[1]);
  const iso = ISO_NO_ZONE.test(value) ? `${value.length === 10 ? `${value}T00:00:00` : value}Z` : value;
  const parsed = Date.parse(iso);
  return Number.isNaN(parsed) ? null : parsed;
}

/** ISO 8601 of a Xero date, or null. */
export function xeroIso(value: unknown): string | null {
  const ms = xeroMillis(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** A Xero date as the day it names, at midnight UTC (document and payment dates). */
export function xeroDay(value: unknown): string | null {
  const iso = xeroIso(value);
  return iso === null ? null : `${iso.slice(0, 10)}T00:00:00.000Z`;
}

/** The `/Date(…)/` form of an epoch time, as Xero writes it. */
export function msDate(ms: number): string {
  return `/Date(${ms}+0000)/`;
}

/** `YYYY-MM-DD` of an ISO date or timestamp, for request bodies and where clauses. */
export function dayOf(value: string): string {
  return value.slice(0, 10);
}

/** `DateTime(2024,05,01)`: a day in Xero's where-clause syntax. */
export function whereDate(iso: string): string {
  const [year, month, day] = dayOf(iso).split('-');
  return `DateTime(${year ?? ''},${month ?? ''},${day ?? ''})`;
}
