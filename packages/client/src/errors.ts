import type { components } from './generated/schema.d.ts';

/** The body of every failed Ledgerport request (ErrorBodySchema in the service's src/http/contract.ts). */
export type ErrorBody = components['schemas']['ErrorBody'];

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.error_type === 'string' && typeof body.error_code === 'string' && typeof body.error_message === 'string';
}

/** A request Ledgerport refused or failed: its HTTP status, error code and type, and the request id to quote. */
export class LedgerportError extends Error {
  override readonly name = 'LedgerportError';
  readonly status: number;
  /** error_code, e.g. INVALID_CURSOR; UNEXPECTED_RESPONSE when the answer was not Ledgerport's error body (a proxy's). */
  readonly code: string;
  /** error_type, e.g. INVALID_REQUEST. */
  readonly type: string;
  /** X-Request-Id of the answer: what the operator's logs and request log are searched by. */
  readonly requestId: string | null;
  readonly metadata: Record<string, unknown>;
  readonly body: ErrorBody | null;

  constructor(status: number, body: ErrorBody | null, requestId: string | null, fallbackMessage = '') {
    super(body?.error_message ?? `HTTP ${status}${fallbackMessage === '' ? '' : `: ${fallbackMessage}`}`);
    this.status = status;
    this.body = body;
    this.code = body?.error_code ?? 'UNEXPECTED_RESPONSE';
    this.type = body?.error_type ?? 'UNEXPECTED_RESPONSE';
    this.metadata = body?.error_metadata ?? {};
    this.requestId = requestId;
  }

  /** The error an unsuccessful response stands for (reads its body). */
  static async fromResponse(response: Response): Promise<LedgerportError> {
    const requestId = response.headers.get('x-request-id');
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: an answer from something in front of the service; its text, shortened, is the message.
    }
    return isErrorBody(parsed)
      ? new LedgerportError(response.status, parsed, requestId)
      : new LedgerportError(response.status, null, requestId, text.slice(0, 200));
  }
}
