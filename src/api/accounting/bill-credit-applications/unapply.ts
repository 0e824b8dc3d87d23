import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { invalidField, referencedRecord } from '../../../writes/check-input.ts';
import { ResponseModeSchema } from '../../../writes/input-schemas.ts';
import { AccessTokenQuery, submitWrite, WRITE_ERRORS, writableConnection } from '../../writes/submit.ts';
import { ALSO_ASYNC, applicationResultSchema, appliedBills, checkReferenceFields, KEY, ReferenceApplicationFields } from './shared.ts';

const Unapplication = Type.Object(
  {
    ...ReferenceApplicationFields,
    bill_credit_memo_id: Type.String({ minLength: 1, description: 'Service id of the bill credit memo.' }),
    linked_bills: Type.Array(
      Type.Object(
        {
          id: Type.String({ minLength: 1, description: 'Service id of a bill the memo is applied to; its whole application is removed.' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false, description: 'The credit memo and the bills to take its credit back from.' },
);

export const contract = defineContract({
  method: 'POST',
  url: '/accounting/bill_credit_applications/unapply',
  auth: 'client',
  tags: ['bill credit memos'],
  summary: 'Undo applications of a bill credit memo',
  description: "Removes the memo's applications to the bills given (their amount_due grows back); answers the credit memo afterwards.",
  querystring: AccessTokenQuery,
  body: Type.Object({ response_mode: ResponseModeSchema, bill_credit_application: Unapplication }, { additionalProperties: false }),
  success: { status: 200, schema: applicationResultSchema('bill_credit_unapplication') },
  alsoSucceeds: ALSO_ASYNC,
  errors: WRITE_ERRORS,
});

export default defineEndpoint(contract, async (request, reply) => {
  const body = request.body;
  const application = body.bill_credit_application;
  const connection = await writableConnection(request, request.query.access_token, 'bill_credit_memo', { op: 'update' });
  const memo = await referencedRecord(
    request.server.services.pool,
    connection.id,
    'bill_credit_memo',
    application.bill_credit_memo_id,
    `${KEY}.bill_credit_memo_id`,
  );
  checkReferenceFields(application, memo, new Date());
  const applied = appliedBills(memo);
  for (const [n, entry] of application.linked_bills.entries()) {
    if (!applied.has(entry.id))
      throw invalidField(`${KEY}.linked_bills[${n}].id`, 'is not a bill this credit memo is applied to (see its linked_bills)');
  }
  return submitWrite(request, reply, {
    connection,
    objectType: 'bill_credit_memo',
    operation: 'unapply_credit',
    target: memo,
    requestBody: body,
    mode: body.response_mode,
  });
});
