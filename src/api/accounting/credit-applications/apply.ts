/** POST …_credit_applications: apply a credit memo to documents of its party; amounts add to what is applied already. */
import { Type } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../../http/contract.ts';
import { invalidField, referencedRecord } from '../../../writes/check-input.ts';
import { ResponseModeSchema, type ResponseMode } from '../../../writes/input-schemas.ts';
import { AccessTokenQuery, submitWrite, WRITE_ERRORS, writableConnection } from '../../writes/submit.ts';
import {
  ALSO_ASYNC,
  applicationParts,
  applicationResultSchema,
  cents,
  checkReferenceFields,
  referenceApplicationFields,
  type CreditSide,
} from './shared.ts';

type Json = Record<string, unknown>;

export function applyCreditEndpoint(side: CreditSide): Endpoint {
  const memo = side.memoType.replaceAll('_', ' ');
  const docs = `${side.docType}s`;
  const Application = Type.Object(
    {
      ...referenceApplicationFields(side),
      [side.memoIdField]: Type.String({ minLength: 1, description: `Service id of the ${memo} to apply.` }),
      [side.linkedField]: Type.Array(
        Type.Object(
          {
            id: Type.String({ minLength: 1, description: `Service id of a ${side.docType} of the same ${side.partyType}.` }),
            allocated_amount: Type.Number({ exclusiveMinimum: 0, description: `Amount of the credit to apply to this ${side.docType}.` }),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 100 },
      ),
    },
    { additionalProperties: false, description: `The credit memo and the ${docs} to apply it to.` },
  );
  const contract = defineContract({
    method: 'POST',
    url: side.path,
    auth: 'client',
    tags: [`${memo}s`],
    summary: `Apply a ${memo} to ${docs}`,
    description: `Reduces the ${docs}' amount_due by the amounts given; answers the credit memo afterwards. Amounts add to what is applied already.`,
    querystring: AccessTokenQuery,
    body: Type.Object({ response_mode: ResponseModeSchema, [side.key]: Application }, { additionalProperties: false }),
    success: { status: 200, schema: applicationResultSchema(side, 'apply') },
    alsoSucceeds: ALSO_ASYNC,
    errors: WRITE_ERRORS,
  });
  return defineEndpoint(contract, async (request, reply) => {
    // Validated by the contract's schema above; read through applicationParts.
    const body = request.body as Json & { response_mode?: ResponseMode };
    const application = body[side.key] as Json;
    const { memoId, documents } = applicationParts(side, application);
    const connection = await writableConnection(request, request.query.access_token, side.memoType, { op: 'update' });
    const db = request.server.services.pool;
    const record = await referencedRecord(db, connection.id, side.memoType, memoId, `${side.key}.${side.memoIdField}`);
    checkReferenceFields(side, application, record, new Date());
    if (record.data.status === 'void')
      throw invalidField(`${side.key}.${side.memoIdField}`, 'names a void credit memo, which has no credit to apply');
    let total = 0;
    for (const [n, entry] of documents.entries()) {
      const field = `${side.key}.${side.linkedField}[${n}]`;
      const doc = await referencedRecord(db, connection.id, side.docType, entry.id, `${field}.id`);
      if (doc.data[side.partyField] !== record.data[side.partyField])
        throw invalidField(`${field}.id`, `is a ${side.docType} of another ${side.partyType} than the credit memo's`);
      if (cents(entry.allocated_amount) > cents(doc.data.amount_due)) {
        throw invalidField(`${field}.allocated_amount`, `is more than the ${side.docType}'s amount_due (${String(doc.data.amount_due)})`);
      }
      total += cents(entry.allocated_amount);
    }
    if (total > cents(record.data.remaining_amount)) {
      throw invalidField(
        `${side.key}.${side.linkedField}`,
        `apply ${(total / 100).toFixed(2)} in all, more than the credit memo's remaining_amount (${String(record.data.remaining_amount)})`,
      );
    }
    return submitWrite(request, reply, {
      connection,
      objectType: side.memoType,
      operation: 'apply_credit',
      target: record,
      requestBody: body,
      mode: body.response_mode,
    });
  });
}
