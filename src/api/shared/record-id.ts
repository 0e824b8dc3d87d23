/**
 * `/accounting/vendors/:id` also catches paths of the reference that we do not serve under that resource
 * (`/accounting/vendors/attachments`, `/accounting/invoice_credit_applications/unapply`,
 * `/accounting/invoices/custom_fields`), and an id route of
 * attachments their words (`/accounting/bills/attachments/attachments`): those words, which no service id (a UUID)
 * can be, are answered like any unknown path (404 ROUTE_NOT_FOUND), never with a 410 saying there is no vendor with
 * id "attachments". Any other wrong id stays a 410 (spec: "usually a wrong :id").
 */
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../../errors/catalogue.ts';

/**
 * Single-word sub-paths the reference has directly under a resource's path (GET /accounting/{entity}/attachments,
 * POST …/unapply, GET /accounting/{entity}/custom_fields).
 */
const REFERENCE_SUBPATHS = new Set(['attachments', 'apply', 'unapply', 'custom_fields']);

export function refusePathWordAsServiceId(request: Pick<FastifyRequest, 'method' | 'url'>, id: string): void {
  if (!REFERENCE_SUBPATHS.has(id)) return;
  throw new ServiceError(
    'ROUTE_NOT_FOUND',
    `No endpoint ${request.method} ${request.url.split('?')[0] ?? ''}: this version does not serve it ("${id}" is not an id). See /docs for the list of endpoints.`,
    { source: 'service' },
  );
}
