/**
 * Sends a batch of statement lines to a bank feed account. The service's own
 * body design (the spec names the endpoint only): the feed account and the
 * lines, each with the institution's own id, on which platforms de-duplicate.
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { invalidField, referencedRecord } from '../../../writes/check-input.ts';
import { ResponseModeSchema } from '../../../writes/input-schemas.ts';
import { AsyncResponseSchema } from '../../../writes/job-view.ts';
import { AccessTokenQuery, submitWrite, WRITE_ERRORS, writableConnection } from '../../writes/submit.ts';


export const MAX_LINES = 1000;

const Line = Type.Object({
  internal_transaction_id: Type.String({ minLength: 1, maxLength: 200, description: 'The institution\'s id of the line; a line sent again with the same id is skipped.' }),
  transaction_date: Type.String({ format: 'date-or-date-time', description: 'Date (YYYY-MM-DD) or date-time of the line.' }),
  amount: Type.Number({ description: 'Signed: money in positive, money out negative.' }),
  description: Type.String({ minLength: 1, maxLength: 500 }),
  payee_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  reference: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  running_balance: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'Account balance after this line.' })),
}, { additionalProperties: false });

const Batch = Type.Object({
  bank_feed_account_id: Type.String({ minLength: 1, description: 'Service id of the bank feed account.' }),
  transactions: Type.Array(Line, { minItems: 1, maxItems: MAX_LINES }),
}, { additionalProperties: false });

const Result: TSchema = Type.Object({
  bank_feed_transactions: Type.Object({
    bank_feed_account_id: Type.String(),
    accepted_count: Type.Integer({ description: 'Lines the platform took.' }),
    duplicate_count: Type.Integer({ description: 'Lines it had already (same internal_transaction_id), skipped.' }),
    platform_batch_id: Type.Union([Type.String(), Type.Null()], { description: 'The platform\'s id of the batch, when it has one.' }),
  }),
});

export const contract = defineContract({
  method: 'POST', url: '/accounting/bank_feeds/transactions', auth: 'client', tags: ['bank feed accounts'],
  summary: 'Send bank feed transactions',
  description: `Sends up to ${MAX_LINES} statement lines to a bank feed account that is transaction_ready.`,
  querystring: AccessTokenQuery,
  body: Type.Object({ response_mode: ResponseModeSchema, bank_feed_transactions: Batch }, { additionalProperties: false }),
  success: { status: 200, schema: Result },
  alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
  errors: [...WRITE_ERRORS, 'ENTITY_NOT_READY'],
});

export default defineEndpoint(contract, async (request, reply) => {
  const body = request.body;
  const batch = body.bank_feed_transactions;
  const connection = await writableConnection(request, request.query.access_token, 'bank_feed_account', { action: 'sendBankFeedTransactions' });
  const feed = await referencedRecord(request.server.services.pool, connection.id, 'bank_feed_account', batch.bank_feed_account_id, 'bank_feed_transactions.bank_feed_account_id');
  if (feed.data.transaction_ready !== true) {
    throw new ServiceError('ENTITY_NOT_READY', `Bank feed account ${feed.id} does not accept transactions yet: link it to a ledger account first (POST /accounting/bank_feeds/accounts/mapping_link).`,
      { source: 'service', field: 'bank_feed_transactions.bank_feed_account_id', location: 'body' });
  }
  const seen = new Set<string>();
  for (const [n, line] of batch.transactions.entries()) {
    if (seen.has(line.internal_transaction_id)) throw invalidField(`bank_feed_transactions.transactions[${n}].internal_transaction_id`, 'appears twice in this batch');
    seen.add(line.internal_transaction_id);
  }
  return submitWrite(request, reply, {
    connection, objectType: 'bank_feed_account', operation: 'send_bank_feed_transactions', target: feed, requestBody: body, mode: body.response_mode,
  });
});
