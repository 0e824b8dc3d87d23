/**
 * The UUID shape PostgreSQL's uuid type reads: 32 hex digits in 8-4-4-4-12
 * groups, either case. Anything else (hyphens in other places, a urn:uuid:
 * prefix) is refused before a query: PostgreSQL answers it with an error,
 * which used to become a 500.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}
