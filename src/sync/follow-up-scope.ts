/**
 * What a write's follow-up sync reads: the written object's type, and the types
 * it links to whose stored fields a document changes on the side (a paid bill's
 * amount_due and status, an applied credit's remaining amount, an account's
 * balance, a contact's balance). Not every object type of the connection: each
 * type read is at least one platform call, and Xero allows 5,000 a day.
 *
 * Monthly statements (balance sheets, income and cash flow statements) are not
 * re-read after a write; the next scheduled sync brings them.
 */
import { LINKS } from '../model/fields.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';

/** Types with fields derived from the documents that link to them. */
const CHANGED_BY_LINKED_DOCUMENTS: ReadonlySet<UnifiedObjectType> = new Set<UnifiedObjectType>([
  'account',
  'bill',
  'invoice',
  'bill_credit_memo',
  'invoice_credit_memo',
  'vendor',
  'customer',
]);

export function followUpTypes(written: UnifiedObjectType): UnifiedObjectType[] {
  // A file attached to a document changes nothing of the document.
  if (written === 'attachment') return ['attachment'];
  const types = new Set<UnifiedObjectType>([written]);
  for (const link of LINKS[written]) {
    for (const target of link.targets) if (CHANGED_BY_LINKED_DOCUMENTS.has(target)) types.add(target);
  }
  return [...types].sort();
}
