/**
 * The documented requirements of the entities the stand-in accepts writes
 * for, checked on the record as it would be stored (after a sparse update is
 * merged): Bill needs a VendorRef and lines with a DetailType, an Amount and
 * the account (or item) of their detail; a JournalEntry's lines carry a
 * PostingType and balance; a Customer has a DisplayName no other customer,
 * vendor or employee has. References must point at live records of the company.
 */
import type { Company } from './company.ts';
import type { Entity, Json } from './fixtures.ts';

export interface Problem {
  /** The fault fixture the answer is built from. */
  fault: 'required-param-missing' | 'invalid-reference' | 'business-validation' | 'duplicate-name';
  detail: string;
  element: string;
}

/** Entities the stand-in writes: what the connector creates, updates and deletes. */
export const WRITABLE: ReadonlySet<Entity> = new Set(['Bill', 'JournalEntry', 'Customer']);
/** Entities QBO deletes (names such as Customer are only made inactive). */
export const DELETABLE: ReadonlySet<Entity> = new Set([
  'Bill',
  'JournalEntry',
  'BillPayment',
  'VendorCredit',
  'Deposit',
  'Transfer',
  'Invoice',
  'Payment',
  'CreditMemo',
  'Attachable',
]);
/** Entities QBO voids. */
export const VOIDABLE: ReadonlySet<Entity> = new Set(['BillPayment', 'Payment', 'Invoice']);

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function missing(element: string): Problem {
  return { fault: 'required-param-missing', detail: `Required parameter ${element} is missing in the request`, element };
}

function refValue(value: unknown): string | null {
  return isJson(value) && typeof value.value === 'string' && value.value !== '' ? value.value : null;
}

/** A reference that must name a live record of `entity`; null when it does. */
function reference(company: Company, entity: Entity, value: unknown, element: string, required: boolean): Problem | null {
  const id = refValue(value);
  if (id === null) return required ? missing(element) : null;
  if (company.find(entity, id) === null)
    return { fault: 'invalid-reference', detail: `Invalid Reference Id : ${entity} ${id} does not exist`, element };
  return null;
}

function lineList(record: Json): Json[] | Problem {
  const lines = record.Line;
  if (!Array.isArray(lines) || lines.length === 0) return missing('Line');
  if (!lines.every(isJson)) return missing('Line');
  return lines;
}

function first(...problems: (Problem | null)[]): Problem | null {
  return problems.find((p) => p !== null) ?? null;
}

function validateBill(company: Company, record: Json): Problem | null {
  const problem = first(
    reference(company, 'Vendor', record.VendorRef, 'VendorRef', true),
    reference(company, 'Account', record.APAccountRef, 'APAccountRef', false),
    reference(company, 'Term', record.SalesTermRef, 'SalesTermRef', false),
    reference(company, 'Department', record.DepartmentRef, 'DepartmentRef', false),
  );
  if (problem !== null) return problem;
  const lines = lineList(record);
  if (!Array.isArray(lines)) return lines;
  for (const line of lines) {
    if (typeof line.Amount !== 'number') return missing('Line.Amount');
    if (line.DetailType === 'AccountBasedExpenseLineDetail') {
      const detail = isJson(line.AccountBasedExpenseLineDetail) ? line.AccountBasedExpenseLineDetail : {};
      const bad = first(
        reference(company, 'Account', detail.AccountRef, 'Line.AccountBasedExpenseLineDetail.AccountRef', true),
        reference(company, 'Class', detail.ClassRef, 'Line.AccountBasedExpenseLineDetail.ClassRef', false),
        reference(company, 'Customer', detail.CustomerRef, 'Line.AccountBasedExpenseLineDetail.CustomerRef', false),
      );
      if (bad !== null) return bad;
    } else if (line.DetailType === 'ItemBasedExpenseLineDetail') {
      const detail = isJson(line.ItemBasedExpenseLineDetail) ? line.ItemBasedExpenseLineDetail : {};
      const bad = reference(company, 'Item', detail.ItemRef, 'Line.ItemBasedExpenseLineDetail.ItemRef', true);
      if (bad !== null) return bad;
    } else {
      return missing('Line.DetailType');
    }
  }
  return null;
}

function validateJournalEntry(company: Company, record: Json): Problem | null {
  const lines = lineList(record);
  if (!Array.isArray(lines)) return lines;
  let balance = 0;
  for (const line of lines) {
    if (line.DetailType !== 'JournalEntryLineDetail') return missing('Line.DetailType');
    if (typeof line.Amount !== 'number' || line.Amount < 0) return missing('Line.Amount');
    const detail = isJson(line.JournalEntryLineDetail) ? line.JournalEntryLineDetail : {};
    if (detail.PostingType !== 'Debit' && detail.PostingType !== 'Credit') return missing('Line.JournalEntryLineDetail.PostingType');
    const bad = reference(company, 'Account', detail.AccountRef, 'Line.JournalEntryLineDetail.AccountRef', true);
    if (bad !== null) return bad;
    balance += (detail.PostingType === 'Debit' ? 1 : -1) * Math.round(line.Amount * 100);
  }
  if (balance !== 0) {
    return {
      fault: 'business-validation',
      detail: 'Business Validation Error: Journal Entry must have at least one debit and one credit, and the debits and credits must be equal.',
      element: 'Line',
    };
  }
  return null;
}

function validateCustomer(company: Company, record: Json): Problem | null {
  const name = typeof record.DisplayName === 'string' ? record.DisplayName.trim() : '';
  if (name === '') return missing('DisplayName');
  const taken = [...company.list('Customer'), ...company.list('Vendor'), ...company.list('Employee')].some(
    (other) => other.Id !== record.Id && typeof other.DisplayName === 'string' && other.DisplayName.trim().toLowerCase() === name.toLowerCase(),
  );
  if (taken) {
    return {
      fault: 'duplicate-name',
      detail: `The name supplied already exists. : Another customer, vendor or employee is already using this name (${name}). Please use a different name.`,
      element: 'DisplayName',
    };
  }
  return first(
    reference(company, 'Customer', record.ParentRef, 'ParentRef', false),
    reference(company, 'Term', record.SalesTermRef, 'SalesTermRef', false),
  );
}

export function validate(company: Company, entity: Entity, record: Json): Problem | null {
  switch (entity) {
    case 'Bill':
      return validateBill(company, record);
    case 'JournalEntry':
      return validateJournalEntry(company, record);
    case 'Customer':
      return validateCustomer(company, record);
    default:
      return null;
  }
}
