/**
 * Request URLs as logged: secrets in query strings and link tokens in paths are
 * masked, so logs never hold a usable access token, public token or OAuth code.
 */
const SECRET_PARAMS = new Set(['access_token', 'public_token', 'code', 'state', 'secret', 'client_secret', 'signature']);

export function redactUrl(url: string): string {
  const [path = '', query] = url.split('?', 2);
  const safePath = path.replace(/^\/link\/(lk_[^/]+)/, '/link/lk_…');
  if (query === undefined) return safePath;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (SECRET_PARAMS.has(key)) params.set(key, '…');
  return `${safePath}?${params.toString()}`;
}
