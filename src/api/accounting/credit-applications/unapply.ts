/** POST …_credit_applications/unapply: remove a credit memo's applications to the documents named. */
import { Type } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../../http/contract.ts';
import { invalidField, referencedRecord } from '../../../writes/check-input.ts';
import { ResponseModeSchema, type ResponseMode } from '../../../writes/input-schemas.ts';
import { AccessTokenQuery, submitWrite, WRITE_ERRORS, writableConnection } from '../../writes/submit.ts';
import {
  ALSO_ASYNC,
  applicationParts,
  applicationResultSchema,
  appliedDocuments,
  checkReferenceFields,
  referenceApplicationFields,
  type CreditSide,
} from './shared.ts';

type Json = Record<string, unknown>;

export function unapplyCreditEndpoint(side: CreditSide): Endpoint {
  const memo = side.memoType.replaceAll('_', ' ');
  const docs = `${side.docType}s`;
  const Unapplication = Type.Object(
    {
      ...referenceApplicationFields(side),
      [side.memoIdField]: Type.String({ minLength: 1, description: `Service id of the ${memo}.` }),
      [side.linkedField]: Type.Array(
        Type.Object(
          {
            id: Type.String({
              minLength: 1,
              description: `Service id of a ${side.docType} the memo is applied to; its whole application is removed.`,
            }),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 100 },
      ),
    },
    { additionalProperties: false, description: `The credit memo and the ${docs} to take its credit back from.` },
  );
  const contract = defineContract({
    method: 'POST',
    url: `${side.path}/unapply`,
    auth: 'client',
    tags: [`${memo}s`],
    summary: `Undo applications of a ${memo}`,
    description: `Removes the memo's applications to the ${docs} given (their amount_due grows back); answers the credit memo afterwards.`,
    querystring: AccessTokenQuery,
    body: Type.Object({ response_mode: ResponseModeSchema, [side.key]: Unapplication }, { additionalProperties: false }),
    success: { status: 200, schema: applicationResultSchema(side, 'unapply') },
    alsoSucceeds: ALSO_ASYNC,
    errors: WRITE_ERRORS,
  });
  return defineEndpoint(contract, async (request, reply) => {
    // Validated by the contract's schema above; read through applicationParts.
    const body = request.body as Json & { response_mode?: ResponseMode };
    const application = body[side.key] as Json;
    const { memoId, documents } = applicationParts(side, application);
    const connection = await writableConnection(request, request.query.access_token, side.memoType, { op: 'update' });
    const record = await referencedRecord(request.server.services.pool, connection.id, side.memoType, memoId, `${side.key}.${side.memoIdField}`);
    checkReferenceFields(side, application, record, new Date());
    const applied = appliedDocuments(side, record);
    for (const [n, entry] of documents.entries()) {
      if (!applied.has(entry.id))
        throw invalidField(
          `${side.key}.${side.linkedField}[${n}].id`,
          `is not a ${side.docType} this credit memo is applied to (see its ${side.linkedField})`,
        );
    }
    return submitWrite(request, reply, {
      connection,
      objectType: side.memoType,
      operation: 'unapply_credit',
      target: record,
      requestBody: body,
      mode: body.response_mode,
    });
  });
}
