/**
 * Applying a bill credit memo to bills, and undoing it. The service's own
 * design (the spec shows neither body nor response): the body names the memo
 * and the bills; the answer is the credit memo afterwards, whose linked_bills
 * say where its credit now stands, with the reference's `{success: true}` beside it. Platforms without an endpoint of their own
 * get it as an update of the memo's applications (src/writes/operations.ts).
 */
import { Type, type TSchema } from 'typebox';
import { MODEL } from '../../../model/index.ts';
import { CURRENCY_CODES, StringEnum } from '../../../model/shared.ts';
import { invalidField, type StoredRecord } from '../../../writes/check-input.ts';
import { DATE_OR_TIMESTAMP } from '../../../writes/input-schemas.ts';
import { AsyncResponseSchema } from '../../../writes/job-view.ts';

type Json = Record<string, unknown>;

export const KEY = 'bill_credit_application';

/**
 * The credit memo afterwards, and beside it the reference's answer under its key (`bill_credit_application` for apply,
 * `bill_credit_unapplication` for unapply): `{success: true}`, for a client written for the reference.
 */
export const applicationResultSchema = (referenceKey: 'bill_credit_application' | 'bill_credit_unapplication'): TSchema =>
  Type.Object({
    bill_credit_memo: MODEL.bill_credit_memo.schema,
    [referenceKey]: Type.Object({ success: Type.Literal(true, { description: 'The platform took the change.' }) }),
  });
export const ALSO_ASYNC = [{ status: 202, schema: AsyncResponseSchema }] as const;

export const cents = (value: unknown): number => (typeof value === 'number' ? Math.round(value * 100) : 0);

export function appliedBills(memo: StoredRecord): Map<string, number> {
  const linked = Array.isArray(memo.data.linked_bills) ? (memo.data.linked_bills as Json[]) : [];
  return new Map(linked.map((entry) => [String(entry.id), cents(entry.allocated_amount)]));
}

/**
 * Fields of the reference's application body that restate the credit memo (docs/reference.md): accepted so a body
 * written for the reference works, and checked against the memo rather than ignored.
 */
export const ReferenceApplicationFields = {
  vendor_id: Type.Optional(
    Type.String({ minLength: 1, description: "Service id of the credit memo's vendor (the reference requires it); must be the memo's vendor." }),
  ),
  currency_code: Type.Optional(StringEnum(CURRENCY_CODES, "Currency of the credit memo (the reference requires it); must be the memo's currency.")),
  transaction_date: Type.Optional(
    Type.String({
      format: DATE_OR_TIMESTAMP,
      description:
        'When the credit is applied (the reference requires it). Platforms record an application when it is made, so it must be within a day of now: back- or post-dating is refused, not ignored.',
    }),
  ),
};

const DAY_MS = 86_400_000;

export function checkReferenceFields(
  application: { vendor_id?: string; currency_code?: string; transaction_date?: string },
  memo: StoredRecord,
  now: Date,
): void {
  if (application.vendor_id !== undefined && application.vendor_id !== memo.data.vendor_id) {
    throw invalidField(`${KEY}.vendor_id`, `is not the credit memo's vendor (${String(memo.data.vendor_id)})`);
  }
  if (application.currency_code !== undefined && application.currency_code !== memo.data.currency_code) {
    throw invalidField(`${KEY}.currency_code`, `is not the credit memo's currency (${String(memo.data.currency_code)})`);
  }
  if (application.transaction_date !== undefined) {
    const day = Date.parse(application.transaction_date.length === 10 ? `${application.transaction_date}T12:00:00Z` : application.transaction_date);
    if (Math.abs(day - now.getTime()) > DAY_MS) {
      throw invalidField(
        `${KEY}.transaction_date`,
        'is more than a day from now: platforms record an application when it is made and cannot date it otherwise; leave it out or send today',
      );
    }
  }
}
