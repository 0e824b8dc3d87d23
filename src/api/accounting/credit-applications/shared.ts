/**
 * Applying a credit memo to documents of its party, and undoing it: bill credit memos to bills, invoice credit
 * memos to invoices, with one implementation (apply.ts, unapply.ts) for both. The service's own design (the spec
 * shows neither body nor response): the body names the memo and the documents; the answer is the credit memo
 * afterwards, whose linked_bills / linked_invoices say where its credit now stands, with the reference's
 * `{success: true}` beside it. Platforms without an endpoint of their own get it as an update of the memo's
 * applications (src/writes/operations.ts).
 */
import { Type, type TSchema } from 'typebox';
import { MODEL } from '../../../model/index.ts';
import { CURRENCY_CODES, StringEnum } from '../../../model/shared.ts';
import { invalidField, type StoredRecord } from '../../../writes/check-input.ts';
import { DATE_OR_TIMESTAMP } from '../../../writes/input-schemas.ts';
import { AsyncResponseSchema } from '../../../writes/job-view.ts';
import { CREDIT_SIDES, type CreditSide } from '../../../writes/credit-sides.ts';

type Json = Record<string, unknown>;

export { CREDIT_SIDES, type CreditSide };

/**
 * The credit memo afterwards, and beside it the reference's answer under its key (`…_credit_application` for apply,
 * `…_credit_unapplication` for unapply): `{success: true}`, for a client written for the reference.
 */
export const applicationResultSchema = (side: CreditSide, operation: 'apply' | 'unapply'): TSchema =>
  Type.Object({
    [side.memoType]: MODEL[side.memoType].schema,
    [side.referenceKeys[operation]]: Type.Object({ success: Type.Literal(true, { description: 'The platform took the change.' }) }),
  });

export const ALSO_ASYNC = [{ status: 202, schema: AsyncResponseSchema }] as const;

export const cents = (value: unknown): number => (typeof value === 'number' ? Math.round(value * 100) : 0);

/** The memo's applications now: document id → cents. */
export function appliedDocuments(side: CreditSide, memo: StoredRecord): Map<string, number> {
  const value = memo.data[side.linkedField];
  const linked = Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];
  return new Map(linked.map((entry) => [String(entry.id), cents(entry.allocated_amount)]));
}

/**
 * Fields of the reference's application body that restate the credit memo (docs/reference.md): accepted so a body
 * written for the reference works, and checked against the memo rather than ignored.
 */
export function referenceApplicationFields(side: CreditSide) {
  return {
    [side.partyField]: Type.Optional(
      Type.String({
        minLength: 1,
        description: `Service id of the credit memo's ${side.partyType} (the reference requires it); must be the memo's ${side.partyType}.`,
      }),
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
}

const DAY_MS = 86_400_000;

export function checkReferenceFields(side: CreditSide, application: Json, memo: StoredRecord, now: Date): void {
  const party = application[side.partyField];
  if (party !== undefined && party !== memo.data[side.partyField]) {
    throw invalidField(`${side.key}.${side.partyField}`, `is not the credit memo's ${side.partyType} (${String(memo.data[side.partyField])})`);
  }
  if (application.currency_code !== undefined && application.currency_code !== memo.data.currency_code) {
    throw invalidField(`${side.key}.currency_code`, `is not the credit memo's currency (${String(memo.data.currency_code)})`);
  }
  const date = application.transaction_date;
  if (typeof date === 'string') {
    const day = Date.parse(date.length === 10 ? `${date}T12:00:00Z` : date);
    if (Math.abs(day - now.getTime()) > DAY_MS) {
      throw invalidField(
        `${side.key}.transaction_date`,
        'is more than a day from now: platforms record an application when it is made and cannot date it otherwise; leave it out or send today',
      );
    }
  }
}

/** The memo id and the document entries of a body the route's schema has validated. */
export function applicationParts(side: CreditSide, application: Json): { memoId: string; documents: { id: string; allocated_amount?: number }[] } {
  const entries = application[side.linkedField];
  const documents = (Array.isArray(entries) ? entries : []).filter((e): e is Json => typeof e === 'object' && e !== null);
  return {
    memoId: String(application[side.memoIdField]),
    documents: documents.map((e) => ({
      id: String(e.id),
      ...(typeof e.allocated_amount === 'number' ? { allocated_amount: e.allocated_amount } : {}),
    })),
  };
}
