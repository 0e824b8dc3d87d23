/**
 * ISO 8601 dates for filters: `2024-01-31`, or a date-time that names its zone
 * (`2024-01-31T09:30:00Z`, `…+02:00`). Checked here so every value reaching
 * PostgreSQL casts cleanly: a bad date is a 400, never a database error.
 */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

export type IsoDateResult =
  { readonly ok: true; readonly value: string; readonly dateOnly: boolean } | { readonly ok: false; readonly reason: string };

export const DATE_FORMAT_HINT = 'use 2024-01-31 or 2024-01-31T09:30:00Z';

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function calendarProblem(year: string, month: string, day: string): string | undefined {
  const y = Number(year);
  const m = Number(month);
  // PostgreSQL has no year 0000 (it would be 1 BC).
  if (y < 1) return 'years start at 0001';
  if (m < 1 || m > 12) return `there is no month ${month}`;
  if (Number(day) < 1 || Number(day) > daysInMonth(y, m)) return `there is no day ${day} in ${year}-${month}`;
  return undefined;
}

function timeProblem(hour: string, minute: string, second: string | undefined, zone: string): string | undefined {
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? '0') > 59) return 'there is no such time of day';
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 14 || Number(zone.slice(4, 6)) > 59)) return `there is no time zone ${zone}`;
  return undefined;
}

export function parseIsoDate(text: string): IsoDateResult {
  const day = DATE_ONLY.exec(text);
  if (day !== null) {
    const [, year = '', month = '', date = ''] = day;
    const problem = calendarProblem(year, month, date);
    return problem === undefined ? { ok: true, value: text, dateOnly: true } : { ok: false, reason: problem };
  }
  const full = DATE_TIME.exec(text);
  if (full === null) return { ok: false, reason: DATE_FORMAT_HINT };
  const [, year = '', month = '', date = '', hour = '', minute = '', second, zone] = full;
  // Without a zone PostgreSQL would use the session's: the same filter would mean different instants.
  if (zone === undefined) return { ok: false, reason: 'a date-time needs a time zone, Z or +hh:mm (in a URL write + as %2B)' };
  const problem = calendarProblem(year, month, date) ?? timeProblem(hour, minute, second, zone);
  return problem === undefined ? { ok: true, value: text, dateOnly: false } : { ok: false, reason: problem };
}
