/**
 * Stripe's answers as the mapping reads them, on the SDK's own types (the `stripe` package's Stripe.Charge, …), parsed
 * against Stripe's published OpenAPI description (src/platforms/contract-check.ts) instead of cast: a stored record is
 * untyped JSON until it passes. READS says which fields the mapping reads of each object; `Cut` is the SDK type cut to
 * them, and scripts/gen-stripe-contract.ts cuts contract-schemas.json from the contract along the same table, so a
 * record that passes has the type the mapping is written on. A field the mapping needs (an amount, its currency) is
 * required; one it reads with the kit's lenient readers (../readers.ts) is optional (`name?`), as before.
 */
import type Stripe from 'stripe';
import { contractFrom, type ContractCheck } from '../contract-check.ts';

/** The fields read of an object: `true` for a scalar (its SDK type), a table for an object's fields. */
export interface Reads {
  readonly [field: string]: true | Reads;
}

/** `T` (an SDK type) cut to the fields of `R`; an expandable's id stays a string, its object is cut too; a list's items are cut. */
export type Cut<T, R> = R extends Reads
  ? T extends readonly (infer E)[]
    ? Cut<E, R>[]
    : T extends object
      ? { [K in keyof R as K extends `${string}?` ? never : K & keyof T]: Cut<T[K & keyof T], R[K]> } & {
          [K in keyof R as K extends `${infer F}?` ? F & keyof T : never]?: K extends `${infer F}?`
            ? Cut<Exclude<T[F & keyof T], undefined>, R[K]>
            : never;
        }
      : T
  : T;

const ADDRESS = { 'line1?': true, 'line2?': true, 'city?': true, 'postal_code?': true, 'country?': true, 'state?': true } as const;
/** An expandable field: an id, or the expanded object (its id). */
const ID = { id: true } as const;

export const READS = {
  charge: {
    id: true,
    amount: true,
    currency: true,
    status: true,
    'amount_refunded?': true,
    'billing_details?': { 'address?': ADDRESS, 'email?': true, 'name?': true, 'phone?': true },
    'created?': true,
    'customer?': ID,
    'description?': true,
    'paid?': true,
    'receipt_email?': true,
    'receipt_number?': true,
    'refunded?': true,
    'shipping?': { 'address?': ADDRESS, 'name?': true, 'phone?': true },
    'statement_descriptor?': true,
  },
  balance_transaction: {
    id: true,
    amount: true,
    currency: true,
    fee: true,
    type: true,
    'created?': true,
    'description?': true,
    'source?': ID,
    'status?': true,
  },
  payout: {
    id: true,
    amount: true,
    currency: true,
    'arrival_date?': true,
    'automatic?': true,
    'created?': true,
    'destination?': { id: true, 'last4?': true, 'bank_name?': true, 'brand?': true, 'routing_number?': true },
    'method?': true,
    'status?': true,
    'type?': true,
  },
  dispute: {
    id: true,
    amount: true,
    currency: true,
    reason: true,
    status: true,
    'charge?': ID,
    'created?': true,
    'evidence_details?': { 'due_by?': true },
  },
  customer: {
    id: true,
    'address?': ADDRESS,
    'created?': true,
    'currency?': true,
    'email?': true,
    'name?': true,
    'phone?': true,
    'shipping?': { 'address?': ADDRESS },
  },
  subscription: {
    id: true,
    currency: true,
    status: true,
    'created?': true,
    'customer?': ID,
    // A list object: its data, each item with its price (the amount and how often it is billed).
    'items?': {
      'data?': { 'id?': true, 'quantity?': true, 'price?': { 'unit_amount?': true, 'recurring?': { interval: true, interval_count: true } } },
    },
  },
  // GET /v1/balance: what the account holds per currency, available to pay out and pending.
  balance: {
    available: { amount: true, currency: true },
    pending: { amount: true, currency: true },
  },
  account: {
    id: true,
    'business_profile?': { 'name?': true, 'support_email?': true, 'url?': true },
    'default_currency?': true,
    'email?': true,
    'settings?': { 'dashboard?': { 'display_name?': true } },
  },
} as const satisfies Record<string, Reads>;

export type Charge = Cut<Stripe.Charge, typeof READS.charge>;
export type BalanceTransaction = Cut<Stripe.BalanceTransaction, typeof READS.balance_transaction>;
export type Dispute = Cut<Stripe.Dispute, typeof READS.dispute>;
export type Customer = Cut<Stripe.Customer, typeof READS.customer>;
export type Account = Cut<Stripe.Account, typeof READS.account>;
export type Balance = Cut<Stripe.Balance, typeof READS.balance>;
export type Subscription = Cut<Stripe.Subscription, typeof READS.subscription>;
export type Address = Cut<Stripe.Address, typeof ADDRESS>;
/** A payout as the reader stores it: with its account's id and the balance transactions it paid out (../read.ts). */
export type Payout = Cut<Stripe.Payout, typeof READS.payout> & { account?: string; balance_transactions?: BalanceTransaction[] };

interface StripeEntries {
  charge: Charge;
  balance_transaction: BalanceTransaction;
  payout: Payout;
  dispute: Dispute;
  customer: Customer;
  subscription: Subscription;
  account: Account;
  balance: Balance;
}

/** Loaded on the first record (the script that writes the file reads READS from here). */
let check: ContractCheck<StripeEntries> | null = null;

const loaded = (): ContractCheck<StripeEntries> =>
  contractFrom<StripeEntries>(new URL('./contract-schemas.json', import.meta.url), 'entries', {
    platform: 'Stripe',
    code: 'STRIPE_CONTRACT',
    regenerate: 'node scripts/gen-stripe-contract.ts',
  });

/** A stored record of `name` (Stripe's `object`), checked against the contract; a PlatformError when it does not fit. */
export function parseRecord<K extends keyof StripeEntries>(name: K, raw: unknown): StripeEntries[K] {
  check ??= loaded();
  return check.one(name, raw, 200);
}
