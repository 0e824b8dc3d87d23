/** Small mapping helpers shared by the per-object mappers: dates, amounts, links, lines, allocations. */
import type { ConnectorContext } from '../../../../src/platforms/connector.ts';
import type { ObjectTypeMap } from '../../../../src/model/fields.ts';
import { CURRENCY_CODES, type CurrencyCode } from '../../../../src/model/shared.ts';
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import { midnight } from '../dates.ts';
import { parseCents } from '../money.ts';
import type { CreditStatus, DocStatus, LinkedTxn, NativeAddress, NativeLine, TxnType } from '../native.ts';

/**
 * The unified object a mapper returns: everything except the service-owned fields. additional_fields is optional
 * (and not filled) on every object but the sales receipt, whose additional fields are the reference's typed ones.
 */
export type Mapped<K extends UnifiedObjectType> = Omit<ObjectTypeMap[K], 'id' | 'last_synced_at' | 'platform_data'>;

export type Ref = ConnectorContext['ref'];

const CURRENCIES = new Set<string>(CURRENCY_CODES);

export function currency(code: string): CurrencyCode {
  // Every code the sandbox writes is ISO 4217; XXX ("no currency") guards against a bad write.
  return CURRENCIES.has(code) ? (code as CurrencyCode) : 'XXX';
}

export function money(text: string): number {
  return parseCents(text) / 100;
}

export function optMoney(text: string | undefined): number | null {
  return text === undefined ? null : money(text);
}

export function day(date: string): string {
  return midnight(date);
}

export function optDay(date: string | undefined): string | null {
  return date === undefined ? null : midnight(date);
}

/** A link that the record always has; ref only answers null for empty input. */
export function link(ref: Ref, type: UnifiedObjectType, platformId: string): string {
  return ref(type, platformId) ?? '';
}

export function docStatus(status: DocStatus): 'open' | 'partially_paid' | 'paid' | 'void' | 'draft' {
  switch (status) {
    case 'Open':
      return 'open';
    case 'PartiallyPaid':
      return 'partially_paid';
    case 'Paid':
      return 'paid';
    case 'Void':
      return 'void';
    case 'Draft':
      return 'draft';
  }
}

export function creditStatus(status: CreditStatus): 'open' | 'partially_paid' | 'paid' | 'void' {
  switch (status) {
    case 'Open':
      return 'open';
    case 'PartiallyApplied':
      return 'partially_paid';
    case 'Applied':
      return 'paid';
    case 'Void':
      return 'void';
  }
}

const LINKED_TYPE: Readonly<Record<TxnType, UnifiedObjectType>> = {
  Bill: 'bill',
  BillPayment: 'bill_payment',
  VendorCredit: 'bill_credit_memo',
  Invoice: 'invoice',
  Payment: 'invoice_payment',
  CreditNote: 'invoice_credit_memo',
};

export interface Allocation {
  id: string;
  allocated_date: string;
  allocated_amount: number;
}

/** Allocation entries of one kind from a record's LinkedTxns. */
export function allocations(linked: readonly LinkedTxn[], kind: TxnType, ref: Ref): Allocation[] {
  return linked
    .filter((t) => t.TxnType === kind)
    .map((t) => ({
      id: link(ref, LINKED_TYPE[t.TxnType], t.TxnId),
      allocated_date: day(t.Date),
      allocated_amount: money(t.Amount),
    }));
}

export function standardLine(line: NativeLine, ref: Ref): Mapped<'bill'>['line_items'][number] {
  return {
    platform_id: line.LineId,
    account_id: ref('account', line.AccountId),
    class_id: ref('class', line.ClassId),
    customer_id: ref('customer', line.CustomerId),
    department_id: ref('department', line.DepartmentId),
    location_id: ref('location', line.LocationId),
    project_id: ref('project', line.ProjectId),
    tax_rate_id: ref('tax_rate', line.TaxCodeId),
    description: line.Description ?? null,
    discount_amount: money(line.Discount),
    discount_percentage: line.DiscountPct === undefined ? null : Number(line.DiscountPct),
    sub_total: money(line.SubTotal),
    tax_amount: money(line.Tax),
    total_amount: money(line.Total),
    item: line.ItemId === undefined ? null : { id: link(ref, 'item', line.ItemId), quantity: line.Qty, unit_amount: money(line.UnitPrice) },
  };
}

export function address(a: NativeAddress): Mapped<'customer'>['addresses'][number] {
  return {
    type: a.Kind.toLowerCase(),
    address1: a.Line1,
    address2: a.Line2 ?? null,
    address3: null,
    city: a.City,
    country: a.Country,
    postal_code: a.PostalCode,
    region: a.Region,
  };
}

export function subsidiaryRefs(ids: readonly string[], ref: Ref): { id: string }[] {
  return ids.map((id) => ({ id: link(ref, 'subsidiary', id) }));
}
