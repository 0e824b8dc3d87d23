/**
 * POST /commerce/orders/:id/fulfillments: a shipment of some or all of an order's lines (the reference's
 * FulfillCommerceOrder, body and answer as it has them). A write job like every write (operation `fulfill`, the order
 * its target): the lines named must be the order's, checked against the stored copy before anything is queued.
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { OrderFulfillmentSchema } from '../../../model/order.ts';
import { refusePathWordAsServiceId } from '../../shared/record-id.ts';
import { invalidField, liveRecord, type StoredRecord } from '../../../writes/check-input.ts';
import { FulfillmentBody } from '../../../writes/commerce-bodies.ts';
import { ResponseModeSchema, type ResponseMode } from '../../../writes/input-schemas.ts';
import { AsyncResponseSchema } from '../../../writes/job-view.ts';
import { AccessTokenQuery, IdParams, submitWrite, WRITE_ERRORS, writableConnection } from '../../writes/submit.ts';

type Json = Record<string, unknown>;

const Result: TSchema = Type.Object({ fulfillment: OrderFulfillmentSchema });

export const contract = defineContract({
  method: 'POST',
  url: '/commerce/orders/:id/fulfillments',
  auth: 'client',
  tags: ['orders'],
  summary: "Fulfill an order's lines",
  description:
    'Records a shipment (carrier, tracking) of the lines named, or of every line not yet fulfilled when line_items is empty. See docs/writes.md.',
  params: IdParams,
  querystring: AccessTokenQuery,
  body: Type.Object({ response_mode: ResponseModeSchema, fulfillment: FulfillmentBody }, { additionalProperties: false }),
  success: { status: 200, schema: Result },
  alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
  errors: [...WRITE_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND'],
});

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each line named is a line of the order, named once, and ships no more than was ordered. */
function checkLines(order: StoredRecord, lines: readonly { line_item_id: string; quantity?: number }[]): void {
  const ordered = new Map<string, number>();
  for (const line of Array.isArray(order.data.line_items) ? order.data.line_items.filter(isJson) : []) {
    ordered.set(String(line.id), typeof line.quantity === 'number' ? line.quantity : 0);
  }
  const seen = new Set<string>();
  for (const [n, line] of lines.entries()) {
    const field = `fulfillment.line_items[${n}]`;
    const quantity = ordered.get(line.line_item_id);
    if (quantity === undefined) throw invalidField(`${field}.line_item_id`, `is not a line of order ${order.id} (got "${line.line_item_id}")`);
    if (seen.has(line.line_item_id)) throw invalidField(`${field}.line_item_id`, 'names a line already named above');
    seen.add(line.line_item_id);
    if (line.quantity !== undefined && line.quantity > quantity)
      throw invalidField(`${field}.quantity`, `is more than the line's ordered quantity ${quantity} (got ${line.quantity})`);
  }
}

export default defineEndpoint(contract, async (request, reply) => {
  const body = request.body as Json & { response_mode?: ResponseMode; fulfillment: { line_items: { line_item_id: string; quantity?: number }[] } };
  refusePathWordAsServiceId(request, request.params.id);
  const connection = await writableConnection(request, request.query.access_token, 'order', { action: 'fulfillOrder' });
  const order = await liveRecord(request.server.services.pool, connection.id, 'order', request.params.id);
  checkLines(order, body.fulfillment.line_items);
  return submitWrite(request, reply, {
    connection,
    objectType: 'order',
    operation: 'fulfill',
    target: order,
    requestBody: body,
    mode: body.response_mode,
  });
});
