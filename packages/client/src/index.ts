/**
 * @ledgerport/client: a typed client of the Ledgerport API (README.md, "The TypeScript client").
 */
export {
  API_VERSIONS,
  createLedgerportApi,
  data,
  idempotencyKey,
  requestHeaders,
  type ApiVersion,
  type LedgerportApi,
  type LedgerportOptions,
} from './client.ts';
export { LedgerportError, type ErrorBody } from './errors.ts';
export { items, pages, type Page } from './pages.ts';
export { SIGNATURE_HEADER, SIGNATURES_HEADER, verifyWebhookSignature, type WebhookHeaders } from './webhooks.ts';
export type { components, operations, paths } from './generated/schema.d.ts';
