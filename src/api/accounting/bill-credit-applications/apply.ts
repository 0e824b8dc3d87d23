import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { invalidField, referencedRecord } from '../../../writes/check-input.ts';
import { ResponseModeSchema } from '../../../writes/input-schemas.ts';
import { AccessTokenQuery, submitWrite, WRITE_ERRORS, writableConnection } from '../../writes/submit.ts';
import { ALSO_ASYNC, applicationResultSchema, cents, checkReferenceFields, KEY, ReferenceApplicationFields } from './shared.ts';

const Application = Type.Object(
  {
    ...ReferenceApplicationFields,
    bill_credit_memo_id: Type.String({ minLength: 1, description: 'Service id of the bill credit memo to apply.' }),
    linked_bills: Type.Array(
      Type.Object(
        {
          id: Type.String({ minLength: 1, description: 'Service id of a bill of the same vendor.' }),
          allocated_amount: Type.Number({ exclusiveMinimum: 0, description: 'Amount of the credit to apply to this bill.' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false, description: 'The credit memo and the bills to apply it to.' },
);

export const contract = defineContract({
  method: 'POST',
  url: '/accounting/bill_credit_applications',
  auth: 'client',
  tags: ['bill credit memos'],
  summary: 'Apply a bill credit memo to bills',
  description: "Reduces the bills' amount_due by the amounts given; answers the credit memo afterwards. Amounts add to what is applied already.",
  querystring: AccessTokenQuery,
  body: Type.Object({ response_mode: ResponseModeSchema, bill_credit_application: Application }, { additionalProperties: false }),
  success: { status: 200, schema: applicationResultSchema('bill_credit_application') },
  alsoSucceeds: ALSO_ASYNC,
  errors: WRITE_ERRORS,
});

export default defineEndpoint(contract, async (request, reply) => {
  const body = request.body;
  const application = body.bill_credit_application;
  const connection = await writableConnection(request, request.query.access_token, 'bill_credit_memo', { op: 'update' });
  const db = request.server.services.pool;
  const memo = await referencedRecord(db, connection.id, 'bill_credit_memo', application.bill_credit_memo_id, `${KEY}.bill_credit_memo_id`);
  checkReferenceFields(application, memo, new Date());
  if (memo.data.status === 'void') throw invalidField(`${KEY}.bill_credit_memo_id`, 'names a void credit memo, which has no credit to apply');
  let total = 0;
  for (const [n, entry] of application.linked_bills.entries()) {
    const field = `${KEY}.linked_bills[${n}]`;
    const bill = await referencedRecord(db, connection.id, 'bill', entry.id, `${field}.id`);
    if (bill.data.vendor_id !== memo.data.vendor_id) throw invalidField(`${field}.id`, "is a bill of another vendor than the credit memo's");
    if (cents(entry.allocated_amount) > cents(bill.data.amount_due)) {
      throw invalidField(`${field}.allocated_amount`, `is more than the bill's amount_due (${String(bill.data.amount_due)})`);
    }
    total += cents(entry.allocated_amount);
  }
  if (total > cents(memo.data.remaining_amount)) {
    throw invalidField(
      `${KEY}.linked_bills`,
      `apply ${(total / 100).toFixed(2)} in all, more than the credit memo's remaining_amount (${String(memo.data.remaining_amount)})`,
    );
  }
  return submitWrite(request, reply, {
    connection,
    objectType: 'bill_credit_memo',
    operation: 'apply_credit',
    target: memo,
    requestBody: body,
    mode: body.response_mode,
  });
});
