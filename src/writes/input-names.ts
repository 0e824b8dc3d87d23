/**
 * A write body may name a value the reference's way where ours has another name (src/writes/check-input.ts
 * has checked that both, when sent, agree). Connectors get our names only, so none of them handles the
 * reference's: the reference's name becomes ours, and the fields that only restate others are dropped.
 */
import type { UnifiedObjectType } from '../model/object-types.ts';

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Moves `theirs` to `ours` (ours wins; they were checked equal). */
function rename(input: Json, ours: string, theirs: string): Json {
  if (!Object.hasOwn(input, theirs)) return input;
  const { [theirs]: value, ...rest } = input;
  return { ...rest, [ours]: rest[ours] ?? value };
}

const RENAMES: Partial<Record<UnifiedObjectType, (input: Json) => Json>> = {
  invoice_payment: (input) => {
    // total_amount is the sum of the allocations (checked): the platform computes it.
    const { total_amount: _total, ...rest } = rename(input, 'transaction_date', 'txn_date');
    if (!Array.isArray(rest.linked_invoices)) return rest;
    const linked = rest.linked_invoices.filter(isJson).map((entry) => {
      // The allocation's date is the payment's (checked): platforms date it so.
      const { allocated_date: _date, allocated_at: _at, ...allocation } = rename(entry, 'allocated_amount', 'amount');
      return allocation;
    });
    return { ...rest, linked_invoices: linked };
  },
};

export function withOurNames(type: UnifiedObjectType, input: Json): Json {
  return RENAMES[type]?.(input) ?? input;
}
