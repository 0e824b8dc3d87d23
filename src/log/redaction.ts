/**
 * What the request log may hold. URLs are logged with secrets in query strings
 * and link tokens in paths masked; no header and no body is logged (the
 * request serializer keeps method, URL and address only); and the raw bytes
 * Node's HTTP parser attaches to a malformed request's error (`rawPacket`,
 * logged by Fastify at trace level, Authorization header included) are
 * censored. So logs never hold a usable access token, public token, OAuth code
 * or client secret.
 */
import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose values are masked, compared without case (a client may send ACCESS_TOKEN=…). */
const SECRET_PARAMS = new Set([
  'access_token',
  'public_token',
  'refresh_token',
  'id_token',
  'token',
  'link_token',
  'code',
  'state',
  'secret',
  'client_secret',
  'password',
  'api_key',
  'signature',
]);
const MASKED = '…';
/** What stands for a secret in a redacted URL. */
export const MASKED_VALUE = MASKED;
export const CENSORED = '[redacted]';
/** A value that itself holds one, e.g. `?a=1?access_token=…` (a stray second `?`). */
const SECRET_INSIDE = new RegExp(`(?:^|[?&;])(?:${[...SECRET_PARAMS].join('|')})=`, 'i');

export const isSecret = (key: string, value: string): boolean => SECRET_PARAMS.has(key.toLowerCase()) || SECRET_INSIDE.test(value);

export function redactUrl(url: string): string {
  const cut = url.indexOf('?');
  const path = cut === -1 ? url : url.slice(0, cut);
  // A link token is a credential for its connection's link page, wherever it appears in a path; so is a dashboard
  // sign-in link's token until it is used.
  const safePath = path.replace(/\/lk_[^/]*/g, `/lk_${MASKED}`).replace(/\/lplnk_[^/]*/g, `/lplnk_${MASKED}`);
  if (cut === -1) return safePath;
  const safe = new URLSearchParams();
  for (const [key, value] of new URLSearchParams(url.slice(cut + 1))) safe.append(key, isSecret(key, value) ? MASKED : value);
  return `${safePath}?${safe.toString()}`;
}

/**
 * Censored wherever a log line carries them: the parser's copy of a bad
 * request, and headers should anything ever log a request's or an error's.
 */
const REDACTED_PATHS = [
  'err.rawPacket',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'err.headers.authorization',
  'err.headers.cookie',
  'headers.authorization',
  'headers.cookie',
];

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
}

/** The service's request logger: pino at `level`, with the serializer and redaction above. */
export function requestLogOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    serializers: {
      req: (req: LoggedRequest) => ({ method: req.method, url: redactUrl(req.url), remote_address: req.ip }),
    },
    redact: { paths: REDACTED_PATHS, censor: CENSORED },
  };
}
