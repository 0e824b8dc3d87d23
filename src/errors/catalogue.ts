/**
 * The error catalogue: every error code the service answers with, its
 * error_type and its HTTP status, in one table. Lower layers throw
 * `ServiceError(code, message, metadata)`; only the HTTP edge turns it into a
 * response. Status and type come from here and nowhere else.
 */
export const ERROR_CATALOGUE = {
  // 400: invalid input; the message says what to fix
  VALIDATION_ERROR: { status: 400, type: 'INVALID_REQUEST' },
  MALFORMED_JSON: { status: 400, type: 'INVALID_REQUEST' },
  UNSUPPORTED_MEDIA_TYPE: { status: 400, type: 'INVALID_REQUEST' },
  INVALID_CURSOR: { status: 400, type: 'INVALID_REQUEST' },
  INVALID_FILTER: { status: 400, type: 'INVALID_REQUEST' },
  MISSING_VERSION: { status: 400, type: 'INVALID_REQUEST' },
  UNSUPPORTED_VERSION: { status: 400, type: 'INVALID_REQUEST' },
  INVALID_PUBLIC_TOKEN: { status: 400, type: 'INVALID_REQUEST' },
  /** A data read ran past READ_STATEMENT_TIMEOUT_MS and was stopped: narrow the filter or lower limit. */
  QUERY_TIMEOUT: { status: 400, type: 'INVALID_REQUEST' },
  // 401: missing or invalid credentials
  MISSING_ACCESS_TOKEN: { status: 401, type: 'INVALID_REQUEST' },
  INVALID_CREDENTIALS: { status: 401, type: 'CONNECTION_ERROR' },
  INVALID_ADMIN_TOKEN: { status: 401, type: 'INVALID_REQUEST' },
  /** A dashboard request without a live session (src/http/session-auth.ts). */
  SESSION_REQUIRED: { status: 401, type: 'INVALID_REQUEST' },
  // 403: a dashboard user's role does not allow the request, or its CSRF token is missing or wrong
  ROLE_NOT_ALLOWED: { status: 403, type: 'INVALID_REQUEST' },
  CSRF_TOKEN_INVALID: { status: 403, type: 'INVALID_REQUEST' },
  // 404: endpoint not implemented, or not supported for the platform
  ROUTE_NOT_FOUND: { status: 404, type: 'INVALID_REQUEST' },
  /** The endpoint's product is not enabled for the organisation (src/tenants/products.ts). */
  PRODUCT_NOT_ALLOWED: { status: 404, type: 'CONNECTION_ERROR' },
  ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM: { status: 404, type: 'INVALID_REQUEST' },
  /** The operator turned the endpoint off for the organisation (src/tenants/endpoints.ts). */
  ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION: { status: 404, type: 'INVALID_REQUEST' },
  // 408: the request did not arrive in time (answered on the raw socket, src/http/client-error.ts)
  REQUEST_TIMEOUT: { status: 408, type: 'INVALID_REQUEST' },
  // 409: conflict with current state or a previous request
  IDEMPOTENCY_KEY_MISMATCH: { status: 409, type: 'INVALID_REQUEST' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, type: 'INVALID_REQUEST' },
  PRODUCT_NOT_READY: { status: 409, type: 'CONNECTION_ERROR' },
  ENTITY_NOT_READY: { status: 409, type: 'CONNECTION_ERROR' },
  /** A connection never linked: no platform credentials to read or write with (src/connections/unlinked.ts). */
  NO_CREDENTIALS: { status: 409, type: 'CONNECTION_ERROR' },
  /** Never linked, and the end user is signing in at the platform right now. */
  PENDING: { status: 409, type: 'CONNECTION_ERROR' },
  /** Never linked, and the last attempt failed (CONNECTION_LINK_ERROR). */
  LINK_ERROR: { status: 409, type: 'CONNECTION_ERROR' },
  NEEDS_UPDATE: { status: 409, type: 'CONNECTION_ERROR' },
  CONNECTION_DISABLED: { status: 409, type: 'CONNECTION_ERROR' },
  SYNC_IN_PROGRESS: { status: 409, type: 'CONNECTION_ERROR' },
  /** Linked to an account another connection holds (src/connections/unlinked.ts). */
  IS_DUPLICATE: { status: 409, type: 'CONNECTION_ERROR' },
  /** The platform's sign-in form cannot be offered: no OAuth app for it in this environment (connection creation). */
  ENDFORM_NOT_AVAILABLE: { status: 409, type: 'CONNECTION_ERROR' },
  DUPLICATE_VALUE_CONFLICT: { status: 409, type: 'INVALID_INPUT' },
  // 410: endpoint known, resource not found
  RESOURCE_NOT_FOUND: { status: 410, type: 'INVALID_REQUEST' },
  // 413: body or upload over the documented limit
  PAYLOAD_TOO_LARGE: { status: 413, type: 'INVALID_REQUEST' },
  // 429: too many requests to the service
  RATE_LIMIT_EXCEEDED: { status: 429, type: 'RATE_LIMIT' },
  // 431: request line and headers over the HTTP parser's limit (src/http/client-error.ts)
  HEADERS_TOO_LARGE: { status: 431, type: 'INVALID_REQUEST' },
  // 45x / 550: the platform answered with an error; its message is kept
  PLATFORM_BAD_REQUEST: { status: 450, type: 'PLATFORM_ERROR' },
  PLATFORM_BILLING_ISSUE: { status: 450, type: 'INVALID_REQUEST' },
  PLATFORM_UNAUTHORIZED: { status: 451, type: 'PLATFORM_ERROR' },
  PLATFORM_RATE_LIMITED: { status: 452, type: 'PLATFORM_ERROR' },
  PLATFORM_ERROR: { status: 550, type: 'PLATFORM_ERROR' },
  // 500: unforeseen
  INTERNAL_ERROR: { status: 500, type: 'INTERNAL_ERROR' },
  SERVICE_UNAVAILABLE: { status: 503, type: 'INTERNAL_ERROR' },
} as const satisfies Record<string, { status: number; type: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorMetadata {
  source?: 'service' | 'platform';
  human_readable?: string;
  platform?: Record<string, unknown>;
  duplicate_property?: string;
  /** For validation errors: where the offending value was and which field. */
  field?: string;
  location?: 'body' | 'query' | 'params' | 'headers';
  [key: string]: unknown;
}

export interface ErrorBody {
  error_type: string;
  error_code: string;
  error_message: string;
  error_metadata?: ErrorMetadata;
}

/** A failure the service answers with a catalogued code. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly metadata: ErrorMetadata | undefined;
  /** Extra response headers (Retry-After, …). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, metadata?: ErrorMetadata, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.metadata = metadata;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = {
      error_type: ERROR_CATALOGUE[this.code].type,
      error_code: this.code,
      error_message: this.message,
    };
    if (this.metadata !== undefined) body.error_metadata = this.metadata;
    return body;
  }
}
