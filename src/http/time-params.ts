/**
 * Instants given as Unix milliseconds in a query string (`updated_at_min`,
 * `last_synced_at_min`, …). One schema bounds them to what every consumer
 * can hold: JavaScript's Date ends at 8.64e15 ms and PostgreSQL's timestamps
 * and ISO 8601's four-digit years before that, so a larger value used to
 * reach the database and answer 500. Beyond the bound is a 400 naming the
 * parameter.
 */
import { Type, type TInteger } from 'typebox';

/** 9999-12-31T23:59:59.999Z, the last instant with a four-digit year. */
export const MAX_UNIX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function UnixMillisParam(description: string): TInteger {
  return Type.Integer({ minimum: 0, maximum: MAX_UNIX_MS, description: `${description} Unix time in milliseconds, 0 to ${MAX_UNIX_MS}.` });
}

/** The instant as an ISO 8601 timestamp for a `timestamptz` parameter (the value passed the schema above). */
export function isoOfUnixMillis(ms: number): string {
  return new Date(ms).toISOString();
}
