/**
 * The business's payment methods: the list QuickBooks Online starts a company with (Cash, Check and the card brands),
 * plus bank transfers and direct debits. Entered when the books begin; drawn from no random source and emitted after
 * every other record, so the books before them are what they were without them. Nothing posts by a payment method.
 */
import { stamp } from '../dates.ts';
import type { NativePaymentMethod } from '../native.ts';
import type { Emitter } from './emitter.ts';

const METHODS: readonly (readonly [NativePaymentMethod['Name'], NativePaymentMethod['Kind']])[] = [
  ['Cash', 'Cash'],
  ['Check', 'Check'],
  ['Visa', 'CreditCard'],
  ['MasterCard', 'CreditCard'],
  ['American Express', 'CreditCard'],
  ['Discover', 'CreditCard'],
  ['Bank Transfer', 'BankTransfer'],
  ['Direct Debit', 'DirectDebit'],
];

export function generatePaymentMethods(out: Emitter, start: string): NativePaymentMethod[] {
  return METHODS.map(([name, kind], n) => {
    // A minute apart on the first day of the books, as a company's default list is made.
    const at = stamp(start, 28_800 + n * 60);
    const method: NativePaymentMethod = { Id: out.nextId('payment_method'), CreatedAt: at, UpdatedAt: at, Name: name, Kind: kind, Status: 'Active' };
    out.push('payment_method', method);
    return method;
  });
}
