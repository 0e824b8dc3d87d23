/**
 * An error answer of the sandbox's native REST API, in its own format:
 * `{"Fault": {"Type": …, "Error": [{"Message", "Detail", "code", "Element"}]}}`.
 * Thrown inside the platform; the API layer turns it into a response.
 */

export type FaultType =
  'ValidationFault' | 'AuthenticationFault' | 'AuthorizationFault' | 'ThrottleFault' | 'SystemFault' | 'BillingFault' | 'NotFoundFault';

const TYPES: Readonly<Record<number, FaultType>> = {
  400: 'ValidationFault',
  401: 'AuthenticationFault',
  402: 'BillingFault',
  403: 'AuthorizationFault',
  404: 'NotFoundFault',
  409: 'ValidationFault',
  429: 'ThrottleFault',
};

export class NativeError extends Error {
  readonly status: number;
  readonly code: string;
  readonly element: string | null;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, element: string | null = null, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'NativeError';
    this.status = status;
    this.code = code;
    this.element = element;
    this.headers = headers;
  }

  body(): Record<string, unknown> {
    const error: Record<string, unknown> = { Message: this.message, Detail: this.message, code: this.code };
    if (this.element !== null) error.Element = this.element;
    return { Fault: { Type: TYPES[this.status] ?? 'SystemFault', Error: [error] } };
  }
}

export function invalid(code: string, message: string, element: string | null = null): NativeError {
  return new NativeError(400, code, message, element);
}
