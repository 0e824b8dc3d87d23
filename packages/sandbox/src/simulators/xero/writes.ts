/**
 * The writes the Xero connector makes (invoices, credit notes, contacts, manual journals, payments): PUT creates, POST creates or updates (the record named by the path or by its id
 * field), a Status of DELETED deletes. Each record becomes one SANDBOX write, applied once per Idempotency-Key (the
 * n-th record of a body under `<key>:<n>`), and is answered as a read renders it. SANDBOX's refusals are Xero's 400.
 * Records of one body are written one by one: a refusal stops the rest, but those before it stay (Xero refuses a
 * body whole); the connector sends one record a call.
 */
import type { UnifiedObjectType } from '../../../../../src/model/object-types.ts';
import { collectionOf } from '../../collections.ts';
import { NativeError } from '../../native-error.ts';
import type { SimulatorAnswer, SimulatorBooks, SimulatorRequest } from '../kit.ts';
import { isRecord, recordsIn } from '../wire.ts';
import { textOf } from '../field-table.ts';
import { idOfUuid, uuidOfId } from '../uuid-ids.ts';
import { envelope, notFound, validationError } from './answers.ts';
import { COLLECTIONS } from './collections.ts';
import { contactBody, invoiceBody, journalBody, paymentBody, type Translated } from './inbound.ts';
import { XeroView, type Json } from './view.ts';

/** The lists the connector writes. */
export const WRITABLE_LISTS = ['Invoices', 'CreditNotes', 'Contacts', 'ManualJournals', 'Payments'] as const;
export type WritableList = (typeof WRITABLE_LISTS)[number];

/** The SANDBOX type of an existing record, from its id's prefix. */
function typeOfId(id: string, candidates: readonly UnifiedObjectType[]): UnifiedObjectType | null {
  return candidates.find((type) => id.startsWith(`${collectionOf(type).prefix}-`)) ?? null;
}

interface Target {
  type: UnifiedObjectType;
  id: string | null;
  translated: Translated;
}

async function targetOf(view: XeroView, list: WritableList, item: Json, id: string | null): Promise<Target | null> {
  const creating = id === null;
  const chart = await view.all('account');
  if (list === 'Contacts') {
    const type = creating ? (item.IsSupplier === true ? 'vendor' : 'customer') : typeOfId(id, ['customer', 'vendor']);
    return type === null ? null : { type, id, translated: contactBody(item, creating) };
  }
  if (list === 'Payments') return paymentTarget(view, item, id);
  if (list === 'ManualJournals')
    return creating || typeOfId(id, ['journal_entry']) !== null
      ? { type: 'journal_entry', id, translated: journalBody(item, chart, creating) }
      : null;
  if (list === 'CreditNotes') {
    const type = creating ? CREDIT_TYPES[textOf(item.Type)] : typeOfId(id, ['bill_credit_memo', 'invoice_credit_memo']);
    if (type === undefined || type === null)
      return creating ? { type: 'bill_credit_memo', id, translated: { refused: ['Credit note Type must be ACCPAYCREDIT or ACCRECCREDIT'] } } : null;
    const party = type === 'bill_credit_memo' ? 'VendorId' : 'CustomerId';
    return { type, id, translated: invoiceBody(item, { noun: 'credit note', party, number: 'CreditNoteNumber' }, chart, creating) };
  }
  const type = creating ? (item.Type === 'ACCPAY' ? 'bill' : item.Type === 'ACCREC' ? 'invoice' : null) : typeOfId(id, ['bill', 'invoice']);
  if (type === null) return creating ? { type: 'bill', id, translated: { refused: ['Invoice Type must be ACCPAY or ACCREC'] } } : null;
  const party = type === 'bill' ? 'VendorId' : 'CustomerId';
  return { type, id, translated: invoiceBody(item, { noun: 'invoice', party, number: 'InvoiceNumber' }, chart, creating) };
}

const CREDIT_TYPES: Readonly<Record<string, UnifiedObjectType>> = { ACCPAYCREDIT: 'bill_credit_memo', ACCRECCREDIT: 'invoice_credit_memo' };

/**
 * A payment of the one bill or invoice its Invoice names (a SANDBOX bill or invoice payment with that allocation), or
 * the deletion of one (Xero's POST of Status DELETED; nothing else of a payment changes). A SANDBOX payment of several
 * documents is read as several Xero payments: only the first, which carries its id, can be deleted, and deletes it whole.
 */
async function paymentTarget(view: XeroView, item: Json, id: string | null): Promise<Target | null> {
  if (id !== null) {
    const type = id.includes('/') ? null : typeOfId(id, ['bill_payment', 'invoice_payment']);
    if (type === null) return null;
    return {
      type,
      id,
      translated: item.Status === 'DELETED' ? { body: {}, delete: true } : { refused: ['A payment can only be deleted (Status DELETED)'] },
    };
  }
  const invoice = isRecord(item.Invoice) ? item.Invoice : {};
  const docId = typeof invoice.InvoiceID === 'string' ? idOfUuid(invoice.InvoiceID) : null;
  const bill = docId === null ? undefined : (await view.all('bill')).find((b) => b.Id === docId);
  const sale = docId === null || bill !== undefined ? undefined : (await view.all('invoice')).find((i) => i.Id === docId);
  const chart = await view.all('account');
  if (bill !== undefined) return { type: 'bill_payment', id, translated: paymentBody(item, { type: 'bill', record: bill }, chart) };
  if (sale !== undefined) return { type: 'invoice_payment', id, translated: paymentBody(item, { type: 'invoice', record: sale }, chart) };
  return { type: 'invoice_payment', id, translated: { refused: ['Invoice could not be found'] } };
}

/** Xero's words for SANDBOX's refusal of a contact name already in use. */
function messageOf(error: NativeError, item: Json): string {
  if (error.code === 'DuplicateValue' && error.element === 'DisplayName')
    return `The contact name ${String(item.Name)} is already assigned to another contact. The contact name must be unique across all active contacts.`;
  return error.message;
}

/** The record as a read renders it, found by its Xero id in a fresh view of the books. */
async function rendered(books: SimulatorBooks, list: WritableList, id: string): Promise<Json | undefined> {
  const records = await COLLECTIONS[list].records(new XeroView(books), new URLSearchParams('includeArchived=true'));
  return records.find((r) => r[COLLECTIONS[list].idField] === id);
}

export async function saveRecords(
  books: SimulatorBooks,
  list: WritableList,
  request: SimulatorRequest,
  pathId: string | null,
  createOnly: boolean,
): Promise<SimulatorAnswer> {
  const body = request.body;
  // Xero's deletePayment (POST /Payments/{PaymentID}) takes a bare PaymentDelete, {Status: "DELETED"}.
  const bare = list === 'Payments' && pathId !== null && isRecord(body) && !(list in body);
  const items = bare ? [body] : isRecord(body) ? recordsIn(body[list]) : [];
  if (items.length === 0) return validationError([`The request has no ${list}`]);
  const key = request.headers['idempotency-key'];
  const idField = COLLECTIONS[list].idField;
  const saved: Json[] = [];
  for (const [n, item] of items.entries()) {
    const givenId = pathId ?? (typeof item[idField] === 'string' ? item[idField] : null);
    const id = givenId === null ? null : idOfUuid(givenId);
    if (givenId !== null && id === null) return notFound();
    if (createOnly && id !== null) return validationError([`${list} ${givenId ?? ''} already exists: use POST to update it`], { [idField]: givenId });
    const view = new XeroView(books);
    const target = await targetOf(view, list, item, id);
    if (target === null) return notFound();
    if ('refused' in target.translated) return validationError(target.translated.refused, givenId === null ? {} : { [idField]: givenId });
    const op = target.translated.delete === true ? 'delete' : id === null ? 'create' : 'update';
    // A deleted record is answered as it was, with its new status.
    const before = op === 'delete' && givenId !== null ? await rendered(books, list, givenId) : undefined;
    try {
      const result = await books.write({
        type: target.type,
        op,
        id,
        body: target.translated.body,
        idempotencyKey: key === undefined ? null : n === 0 ? key : `${key}:${n}`,
      });
      const written = isRecord(result.body.Item) ? result.body.Item : null;
      const writtenId = typeof written?.Id === 'string' ? written.Id : id;
      const record =
        op === 'delete'
          ? before && { ...before, Status: 'DELETED' }
          : writtenId === null
            ? undefined
            : await rendered(books, list, uuidOfId(writtenId));
      if (record !== undefined) saved.push(record);
    } catch (error) {
      if (!(error instanceof NativeError)) throw error;
      if (error.status === 404) return notFound();
      return validationError([messageOf(error, item)], givenId === null ? {} : { [idField]: givenId });
    }
  }
  return envelope(list, saved);
}
