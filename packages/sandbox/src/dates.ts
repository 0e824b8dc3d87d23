/** Date-only arithmetic on YYYY-MM-DD strings, in UTC. */

const DAY_MS = 86_400_000;

// Generation touches a few hundred distinct days millions of times: memoise both directions.
const msCache = new Map<string, number>();
const dayCache = new Map<number, string>();

export function toDateOnly(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let text = dayCache.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (dayCache.size < 100_000) dayCache.set(day, text);
  }
  return text;
}

export function dateMs(date: string): number {
  let ms = msCache.get(date);
  if (ms === undefined) {
    ms = Date.parse(`${date}T00:00:00.000Z`);
    if (msCache.size < 100_000) msCache.set(date, ms);
  }
  return ms;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

export function addDays(date: string, days: number): string {
  return toDateOnly(dateMs(date) + days * DAY_MS);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((dateMs(to) - dateMs(from)) / DAY_MS);
}

/** A timestamp on a business date, `secondOfDay` seconds after midnight UTC. */
export function stamp(date: string, secondOfDay: number): string {
  const s = Math.max(0, Math.min(86_399, Math.floor(secondOfDay)));
  return `${date}T${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}.000Z`;
}

/** First day of the month `months` months before the month of `date`. */
export function monthsBefore(date: string, months: number): string {
  const d = new Date(dateMs(date));
  return toDateOnly(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1));
}

export function isDateOnly(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  // Date.parse rolls 2025-02-30 over to March 2; a real day reads back as itself.
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/** Midnight UTC ISO timestamp of a date-only value (how the unified model serves business dates). */
export function midnight(date: string): string {
  return `${date}T00:00:00.000Z`;
}
