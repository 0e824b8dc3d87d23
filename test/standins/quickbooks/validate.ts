/**
 * What the stand-in accepts as a written record. First Intuit's published contract: its XML Schema of the v3 API
 * (test/contracts/quickbooks), as the JSON Schemas scripts/gen-quickbooks-standin-contract.ts makes of it
 * (contract-schemas.json): only the fields the entity has, with their types. Then what QBO's reference says beyond the
 * schema, checked on the record as it would be stored (after a sparse update is merged): the fields a record needs,
 * the line details each entity's lines may have and what those need, references to live records of the company, a
 * journal entry's balance, and a customer or vendor name no other customer, vendor or employee has.
 */
import { recordsIn } from '../../../packages/sandbox/src/simulators/wire.ts';
import { JsonSchemaContract } from '../kit/json-schemas.ts';
import type { Company } from './company.ts';
import { isJson, type Entity, type Json } from './fixtures.ts';

export interface Problem {
  /** The fault fixture the answer is built from. */
  fault: 'invalid-property' | 'required-param-missing' | 'invalid-reference' | 'business-validation' | 'duplicate-name';
  detail: string;
  element: string;
}

/** Intuit's contract: `IntuitResponse` (every JSON answer but reports), `Report`, and each entity by its name. */
export const CONTRACT = new JsonSchemaContract(new URL('./contract-schemas.json', import.meta.url));

/** Entities the stand-in writes: what the connector creates, updates and deletes. */
export const WRITABLE: ReadonlySet<Entity> = new Set([
  'Bill',
  'JournalEntry',
  'Customer',
  'SalesReceipt',
  'Item',
  'Class',
  'Department',
  'Term',
  'Vendor',
  'Invoice',
  'Payment',
  'BillPayment',
  'VendorCredit',
  'Purchase',
]);
/** Entities QBO deletes (names such as Customer and Item are only made inactive). */
export const DELETABLE: ReadonlySet<Entity> = new Set([
  'Bill',
  'JournalEntry',
  'BillPayment',
  'VendorCredit',
  'Purchase',
  'Deposit',
  'Transfer',
  'Invoice',
  'Payment',
  'CreditMemo',
  'Attachable',
]);
/**
 * Entities QBO voids, and how each is asked for by Intuit's reference: an invoice by `operation=void`, payments by a
 * sparse update with `include=void`.
 */
export const VOIDS: Partial<Record<Entity, 'operation=void' | 'include=void'>> = {
  BillPayment: 'include=void',
  Payment: 'include=void',
  Invoice: 'operation=void',
};

/** The fields a stored record needs; `Line.…` in every line. */
const REQUIRED: Partial<Record<Entity, readonly string[]>> = {
  Bill: ['VendorRef', 'Line', 'Line.Amount'],
  JournalEntry: ['Line', 'Line.Amount'],
  Customer: ['DisplayName'],
  Vendor: ['DisplayName'],
  VendorCredit: ['VendorRef', 'Line', 'Line.Amount'],
  // Intuit's Purchase reference: the account paid from, how it was paid, and the lines.
  Purchase: ['AccountRef', 'PaymentType', 'Line', 'Line.Amount'],
  // Intuit's BillPayment reference: the vendor, how it was paid, the total and a line per bill paid.
  BillPayment: ['VendorRef', 'PayType', 'TotalAmt', 'Line', 'Line.Amount', 'Line.LinkedTxn'],
  Class: ['Name'],
  Department: ['Name'],
  Term: ['Name'],
  SalesReceipt: ['Line', 'Line.Amount'],
  Invoice: ['CustomerRef', 'Line', 'Line.Amount'],
  Payment: ['CustomerRef', 'TotalAmt'],
  // Intuit's Item reference: a service or non-inventory item needs the income account its sales post to.
  Item: ['Name', 'Type', 'IncomeAccountRef'],
};
/** The DetailType each entity's lines may have, and the fields of that detail a line needs. */
const LINE_DETAILS: Partial<Record<Entity, Readonly<Record<string, readonly string[]>>>> = {
  Bill: { AccountBasedExpenseLineDetail: ['AccountRef'], ItemBasedExpenseLineDetail: ['ItemRef'] },
  VendorCredit: { AccountBasedExpenseLineDetail: ['AccountRef'], ItemBasedExpenseLineDetail: ['ItemRef'] },
  Purchase: { AccountBasedExpenseLineDetail: ['AccountRef'], ItemBasedExpenseLineDetail: ['ItemRef'] },
  JournalEntry: { JournalEntryLineDetail: ['PostingType', 'AccountRef'] },
  SalesReceipt: { SalesItemLineDetail: ['ItemRef'] },
  Invoice: { SalesItemLineDetail: ['ItemRef'] },
};
/** The entity a reference names, by its field (ParentRef: the record's own entity). */
const REFERENCES: Readonly<Record<string, Entity>> = {
  VendorRef: 'Vendor',
  AccountRef: 'Account',
  APAccountRef: 'Account',
  ARAccountRef: 'Account',
  DepositToAccountRef: 'Account',
  BankAccountRef: 'Account',
  CCAccountRef: 'Account',
  SalesTermRef: 'Term',
  TermRef: 'Term',
  DepartmentRef: 'Department',
  ClassRef: 'Class',
  CustomerRef: 'Customer',
  ItemRef: 'Item',
  IncomeAccountRef: 'Account',
  ExpenseAccountRef: 'Account',
};

const lines = (record: Json): Json[] => recordsIn(record.Line);

function missing(element: string): Problem {
  return { fault: 'required-param-missing', detail: `Required parameter ${element} is missing in the request`, element };
}

/** Whether a field holds something: a reference with an id, a number, text, a non-empty list. */
function present(value: unknown): boolean {
  if (isJson(value)) return typeof value.value === 'string' && value.value !== '';
  if (Array.isArray(value)) return value.length > 0 && value.every(isJson);
  return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '');
}

/** The contract's problems of a body or record of `entity` (its fields and their types), as the first Problem. */
export function contractProblem(entity: Entity, body: Json): Problem | null {
  const [first, ...more] = CONTRACT.problems(entity, body);
  if (first === undefined) return null;
  return { fault: 'invalid-property', detail: [first, ...more].join('; '), element: first.split(' ')[0] ?? entity };
}

function requiredProblem(entity: Entity, record: Json): Problem | null {
  for (const field of REQUIRED[entity] ?? []) {
    const [head = '', inLine] = field.split('.');
    if (inLine === undefined ? !present(record[head]) : lines(record).some((line) => !present(line[inLine]))) return missing(field);
  }
  const details = LINE_DETAILS[entity];
  for (const line of details === undefined ? [] : lines(record)) {
    const type = typeof line.DetailType === 'string' ? line.DetailType : '';
    const needs = details?.[type];
    if (needs === undefined) return missing('Line.DetailType');
    const detail = isJson(line[type]) ? line[type] : {};
    const absent = needs.find((field) => !present(detail[field]));
    if (absent !== undefined) return missing(`Line.${type}.${absent}`);
  }
  return null;
}

/** The first reference (depth first) to a record the company does not have; `element` as QBO names it, without indexes. */
function referenceProblem(company: Company, entity: Entity, value: unknown, element: string): Problem | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = referenceProblem(company, entity, item, element);
      if (problem !== null) return problem;
    }
    return null;
  }
  if (!isJson(value)) return null;
  for (const [field, inner] of Object.entries(value)) {
    const path = element === '' ? field : `${element}.${field}`;
    const target = field === 'ParentRef' ? entity : REFERENCES[field];
    const id = isJson(inner) && typeof inner.value === 'string' ? inner.value : null;
    if (target !== undefined && id !== null && company.find(target, id) === null)
      return { fault: 'invalid-reference', detail: `Invalid Reference Id : ${target} ${id} does not exist`, element: path };
    const problem = target === undefined ? referenceProblem(company, entity, inner, path) : null;
    if (problem !== null) return problem;
  }
  return null;
}

function journalProblem(record: Json): Problem | null {
  let balance = 0;
  for (const line of lines(record)) {
    const amount = typeof line.Amount === 'number' ? line.Amount : -1;
    if (amount < 0) return missing('Line.Amount');
    const posting = isJson(line.JournalEntryLineDetail) ? line.JournalEntryLineDetail.PostingType : undefined;
    balance += (posting === 'Debit' ? 1 : -1) * Math.round(amount * 100);
  }
  if (balance === 0) return null;
  return {
    fault: 'business-validation',
    detail: 'Business Validation Error: Journal Entry must have at least one debit and one credit, and the debits and credits must be equal.',
    element: 'Line',
  };
}

function businessProblem(detail: string, element: string): Problem {
  return { fault: 'business-validation', detail: `Business Validation Error: ${detail}`, element };
}

/**
 * A payment applies at most its total, each line to an invoice of its customer with at least that much open (what
 * this payment applied before counts as open again), as Intuit's Payment reference says.
 */
function paymentProblem(company: Company, record: Json): Problem | null {
  const before = typeof record.Id === 'string' ? company.find('Payment', record.Id) : null;
  const customer = isJson(record.CustomerRef) ? record.CustomerRef.value : undefined;
  let applied = 0;
  for (const line of lines(record)) {
    const amount = Math.round(Number(line.Amount) * 100);
    applied += amount;
    for (const link of recordsIn(line.LinkedTxn)) {
      if (link.TxnType !== 'Invoice') return businessProblem(`a payment line links invoices, not ${String(link.TxnType)}`, 'Line.LinkedTxn.TxnType');
      const invoice = company.find('Invoice', String(link.TxnId));
      if (invoice === null)
        return {
          fault: 'invalid-reference',
          detail: `Invalid Reference Id : Invoice ${String(link.TxnId)} does not exist`,
          element: 'Line.LinkedTxn',
        };
      if (!isJson(invoice.CustomerRef) || invoice.CustomerRef.value !== customer)
        return businessProblem(`Invoice ${String(invoice.Id)} belongs to another customer`, 'Line.LinkedTxn');
      const open = Math.round(Number(invoice.Balance) * 100) + appliedTo(before, String(invoice.Id));
      if (amount > open) return businessProblem(`the payment applies more than Invoice ${String(invoice.Id)} has open`, 'Line.Amount');
    }
  }
  if (applied > Math.round(Number(record.TotalAmt) * 100)) return businessProblem('the lines apply more than the payment total', 'TotalAmt');
  return null;
}

/** What a payment (null: none) applies to an invoice, in cents. */
export function appliedTo(payment: Json | null, invoiceId: string): number {
  return recordsIn(payment?.Line)
    .filter((line) => recordsIn(line.LinkedTxn).some((link) => link.TxnType === 'Invoice' && String(link.TxnId) === invoiceId))
    .reduce((sum, line) => sum + Math.round(Number(line.Amount) * 100), 0);
}

function duplicateNameProblem(company: Company, record: Json): Problem | null {
  const name = typeof record.DisplayName === 'string' ? record.DisplayName.trim().toLowerCase() : '';
  const taken = [...company.list('Customer'), ...company.list('Vendor'), ...company.list('Employee')].some(
    (other) => other.Id !== record.Id && typeof other.DisplayName === 'string' && other.DisplayName.trim().toLowerCase() === name,
  );
  if (!taken) return null;
  return {
    fault: 'duplicate-name',
    detail: `The name supplied already exists. : Another customer, vendor or employee is already using this name (${String(record.DisplayName).trim()}). Please use a different name.`,
    element: 'DisplayName',
  };
}

/** An item's name is unique among the company's items (QBO's 6240 Duplicate Name Exists). */
function duplicateItemProblem(company: Company, record: Json): Problem | null {
  const name = typeof record.Name === 'string' ? record.Name.trim().toLowerCase() : '';
  const taken = company
    .list('Item')
    .some((other) => other.Id !== record.Id && typeof other.Name === 'string' && other.Name.trim().toLowerCase() === name);
  if (!taken) return null;
  return {
    fault: 'duplicate-name',
    detail: `The name supplied already exists. : Another product or service is already using this name (${String(record.Name).trim()}). Please use a different name.`,
    element: 'Name',
  };
}

/** Where a bill payment's PayType keeps the account it was paid from, and the AccountType that account must have. */
const PAID_FROM: Readonly<Record<string, { detail: string; ref: string; accountType: string }>> = {
  Check: { detail: 'CheckPayment', ref: 'BankAccountRef', accountType: 'Bank' },
  CreditCard: { detail: 'CreditCardPayment', ref: 'CCAccountRef', accountType: 'Credit Card' },
};

/**
 * A bill payment's account is in the detail of its PayType and of the matching AccountType; each line pays an open
 * bill of the payment's vendor (Intuit's BillPayment reference).
 */
function billPaymentProblem(company: Company, record: Json): Problem | null {
  const paidFrom = PAID_FROM[String(record.PayType)];
  if (paidFrom === undefined) return missing('PayType');
  const detail = isJson(record[paidFrom.detail]) ? record[paidFrom.detail] : {};
  const accountRef = isJson(detail) ? detail[paidFrom.ref] : undefined;
  if (!present(accountRef) || !isJson(accountRef)) return missing(`${paidFrom.detail}.${paidFrom.ref}`);
  const account = company.find('Account', String(accountRef.value));
  if (account !== null && account.AccountType !== paidFrom.accountType)
    return businessProblem(
      `A ${String(record.PayType)} bill payment is paid from a ${paidFrom.accountType} account.`,
      `${paidFrom.detail}.${paidFrom.ref}`,
    );
  const vendor = isJson(record.VendorRef) ? record.VendorRef.value : undefined;
  for (const line of lines(record)) {
    for (const link of recordsIn(line.LinkedTxn)) {
      const bill = link.TxnType === 'Bill' ? company.find('Bill', String(link.TxnId)) : null;
      if (bill === null)
        return { fault: 'invalid-reference', detail: `Invalid Reference Id : Bill ${String(link.TxnId)} does not exist`, element: 'Line.LinkedTxn' };
      if (!isJson(bill.VendorRef) || bill.VendorRef.value !== vendor)
        return businessProblem(`Bill ${String(link.TxnId)} is another vendor's.`, 'Line.LinkedTxn');
    }
  }
  return null;
}

/** The first reason QBO would refuse `record` of `entity` as written, or null. */
export function validate(company: Company, entity: Entity, record: Json): Problem | null {
  return (
    contractProblem(entity, record) ??
    requiredProblem(entity, record) ??
    (entity === 'Customer' || entity === 'Vendor' ? duplicateNameProblem(company, record) : null) ??
    (entity === 'Item' ? duplicateItemProblem(company, record) : null) ??
    referenceProblem(company, entity, record, '') ??
    (entity === 'JournalEntry' ? journalProblem(record) : null) ??
    (entity === 'Payment' ? paymentProblem(company, record) : null) ??
    (entity === 'BillPayment' ? billPaymentProblem(company, record) : null)
  );
}
