/**
 * The platform page where the business links a bank feed account to an
 * account of its ledger (spec: "Business finishes the linking flow on the
 * platform → transaction_ready true; feed_status active"). The service's own
 * body design: the feed account in, the page address and its expiry out, also
 * under the reference's key bank_feed_account_mapping_link.
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { referencedRecord } from '../../../writes/check-input.ts';
import { ResponseModeSchema } from '../../../writes/input-schemas.ts';
import { AsyncResponseSchema } from '../../../writes/job-view.ts';
import { AccessTokenQuery, submitWrite, WRITE_ERRORS, writableConnection } from '../../writes/submit.ts';

const Result: TSchema = Type.Object({
  mapping_link: Type.Object({
    bank_feed_account_id: Type.String(),
    url: Type.String({ description: 'Hand it to the business; when it finishes there, the feed account becomes transaction_ready and active.' }),
    expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  }),
  bank_feed_account_mapping_link: Type.Object(
    {
      url: Type.String(),
      expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Null where the platform gives no expiry.' }),
    },
    { description: "The reference's key for the same page: mapping_link's url and expires_at." },
  ),
});

export const contract = defineContract({
  method: 'POST',
  url: '/accounting/bank_feeds/accounts/mapping_link',
  auth: 'client',
  tags: ['bank feed accounts'],
  summary: 'Get the page that links a bank feed account to a ledger account',
  querystring: AccessTokenQuery,
  body: Type.Object(
    {
      response_mode: ResponseModeSchema,
      mapping_link: Type.Object({ bank_feed_account_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  ),
  success: { status: 200, schema: Result },
  alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
  errors: WRITE_ERRORS,
});

export default defineEndpoint(contract, async (request, reply) => {
  const body = request.body;
  const connection = await writableConnection(request, request.query.access_token, 'bank_feed_account', { action: 'bankFeedMappingLink' });
  const feed = await referencedRecord(
    request.server.services.pool,
    connection.id,
    'bank_feed_account',
    body.mapping_link.bank_feed_account_id,
    'mapping_link.bank_feed_account_id',
  );
  return submitWrite(request, reply, {
    connection,
    objectType: 'bank_feed_account',
    operation: 'bank_feed_mapping_link',
    target: feed,
    requestBody: body,
    mode: body.response_mode,
  });
});
