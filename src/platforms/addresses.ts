/**
 * Platform addresses (API hosts, OAuth endpoints) with an environment variable
 * to override each: operators point a connector at a proxy or a regional host,
 * tests at a local stand-in. Read at call time, so a test can start its
 * stand-in on a free port after the service has loaded.
 */

/** The address in `process.env[variable]`, else `fallback`; without a trailing slash. */
export function platformAddress(variable: string, fallback: string): string {
  const configured = process.env[variable];
  const value = configured === undefined || configured.trim() === '' ? fallback : configured.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} must be an http(s) URL, not "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${variable} must be an http(s) URL, not "${value}"`);
  return value.replace(/\/+$/, '');
}
