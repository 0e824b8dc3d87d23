/**
 * The dashboard's pages read and act through the service's own endpoints, in process (Fastify's inject), as the
 * signed-in user: the same authentication, role checks, validation, tenant guard, audit log and error answers as an
 * API client gets, and no second path to the data.
 */
import type { FastifyInstance } from 'fastify';
import { CSRF_HEADER, ENVIRONMENT_HEADER, SESSION_COOKIE } from '../http/session-auth.ts';
import type { Environment } from '../tenants/types.ts';
import { LATEST_VERSION } from '../http/versioning.ts';

export interface ApiError {
  error_type: string;
  error_code: string;
  error_message: string;
}

export type ApiAnswer<T> = { ok: true; status: number; body: T } | { ok: false; status: number; error: ApiError };

export interface ApiCaller {
  get<T>(url: string): Promise<ApiAnswer<T>>;
  send<T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<ApiAnswer<T>>;
}

function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'error_code' in value && 'error_message' in value;
}

export function apiCaller(
  app: FastifyInstance,
  session: { token: string; csrfToken: string; environment: Environment; requestId: string },
): ApiCaller {
  const call = async <T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<ApiAnswer<T>> => {
    const response = await app.inject({
      method,
      url,
      headers: {
        cookie: `${SESSION_COOKIE}=${session.token}`,
        [ENVIRONMENT_HEADER]: session.environment,
        [CSRF_HEADER]: session.csrfToken,
        'x-request-id': session.requestId,
        // The /versioned routes require a version; the dashboard speaks the newest.
        'x-service-version': LATEST_VERSION,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const parsed: unknown = response.body === '' ? null : JSON.parse(response.body);
    if (response.statusCode >= 400) {
      const error = isApiError(parsed)
        ? parsed
        : { error_type: 'INTERNAL_ERROR', error_code: 'INTERNAL_ERROR', error_message: `The service answered ${response.statusCode}.` };
      return { ok: false, status: response.statusCode, error };
    }
    // The endpoint's own contract serialised it: the shape is the endpoint's success schema.
    return { ok: true, status: response.statusCode, body: parsed as T };
  };
  return { get: (url) => call('GET', url), send: (method, url, body) => call(method, url, body) };
}
