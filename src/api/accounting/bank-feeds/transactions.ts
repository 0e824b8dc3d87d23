/**
 * Sends a batch of statement lines to a bank feed account. The service's own
 * body design (the spec names the endpoint only): the feed account and the
 * lines, each with the institution's own id, on which platforms de-duplicate.
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { invalidField, referencedRecord } from '../../../writes/check-input.ts';
import { feedLine, REFERENCE_TRANSACTION_TYPES } from '../../../writes/bank-feed-lines.ts';
import { ResponseModeSchema } from '../../../writes/input-schemas.ts';
import { StringEnum } from '../../../model/shared.ts';
import { AsyncResponseSchema } from '../../../writes/job-view.ts';
import { AccessTokenQuery, submitWrite, WRITE_ERRORS, writableConnection } from '../../writes/submit.ts';

export const MAX_LINES = 1000;

const NullableText = (maxLength: number, description: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()], { description }));

/** Our field names, or the reference's beside them (src/writes/bank-feed-lines.ts says how they combine). */
const Line = Type.Object(
  {
    internal_transaction_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The institution's id of the line; a line sent again with the same id is skipped. Required, or transaction_id.",
      }),
    ),
    transaction_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "The reference's name for internal_transaction_id." })),
    transaction_date: Type.Optional(
      Type.String({ format: 'date-or-date-time', description: 'Date (YYYY-MM-DD) or date-time of the line. Required, or posted_at.' }),
    ),
    posted_at: Type.Optional(
      Type.String({
        format: 'date-or-date-time',
        description:
          "The reference's date of the line (when the bank posted it); with it, transaction_date may say when the transaction happened, on or before.",
      }),
    ),
    amount: Type.Number({ description: 'Signed: money in positive, money out negative.' }),
    description: Type.String({ minLength: 1, maxLength: 500 }),
    payee_name: NullableText(200, 'Who was paid or paid.'),
    payee: NullableText(200, "The reference's name for payee_name."),
    reference: NullableText(200, 'Reference of the line, such as a check number.'),
    running_balance: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'Account balance after this line.' })),
    transaction_type: Type.Optional(
      StringEnum(
        REFERENCE_TRANSACTION_TYPES,
        "The reference's kind of line; checked against the sign of amount (credit and deposit are money in; debit, fee and payment money out).",
      ),
    ),
    debit_credit_memo: Type.Optional(StringEnum(['CREDIT', 'DEBIT'], "The reference's direction of the line; checked against the sign of amount.")),
  },
  { additionalProperties: false },
);

const Batch = Type.Object(
  {
    bank_feed_account_id: Type.String({ minLength: 1, description: 'Service id of the bank feed account.' }),
    transactions: Type.Array(Line, { minItems: 1, maxItems: MAX_LINES }),
  },
  { additionalProperties: false },
);

const Result: TSchema = Type.Object({
  bank_feed_transactions: Type.Object({
    bank_feed_account_id: Type.String(),
    accepted_count: Type.Integer({ description: 'Lines the platform took.' }),
    duplicate_count: Type.Integer({ description: 'Lines it had already (same internal_transaction_id), skipped.' }),
    platform_batch_id: Type.Union([Type.String(), Type.Null()], { description: "The platform's id of the batch, when it has one." }),
  }),
});

export const contract = defineContract({
  method: 'POST',
  url: '/accounting/bank_feeds/transactions',
  auth: 'client',
  tags: ['bank feed accounts'],
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
  const feed = await referencedRecord(
    request.server.services.pool,
    connection.id,
    'bank_feed_account',
    batch.bank_feed_account_id,
    'bank_feed_transactions.bank_feed_account_id',
  );
  if (feed.data.transaction_ready !== true) {
    throw new ServiceError(
      'ENTITY_NOT_READY',
      `Bank feed account ${feed.id} does not accept transactions yet: link it to a ledger account first (POST /accounting/bank_feeds/accounts/mapping_link).`,
      { source: 'service', field: 'bank_feed_transactions.bank_feed_account_id', location: 'body' },
    );
  }
  const seen = new Set<string>();
  for (const [n, sent] of batch.transactions.entries()) {
    const at = `bank_feed_transactions.transactions[${n}]`;
    const line = feedLine(sent, at);
    if (seen.has(line.internal_transaction_id))
      throw invalidField(`${at}.${sent.transaction_id === undefined ? 'internal_transaction_id' : 'transaction_id'}`, 'appears twice in this batch');
    seen.add(line.internal_transaction_id);
  }
  return submitWrite(request, reply, {
    connection,
    objectType: 'bank_feed_account',
    operation: 'send_bank_feed_transactions',
    target: feed,
    requestBody: body,
    mode: body.response_mode,
  });
});
