/**
 * Stripe's ids are `<prefix>_<letters and digits>`; SANDBOX's are short text (`ORD-000123`, `CH-ORD-000123`). A Stripe
 * id here is the prefix and the SANDBOX id's UTF-8 bytes in hex, so an id the connector sends back (a GET by id,
 * `starting_after`, `?payout=`) names its SANDBOX record without any state kept between calls.
 */
import { createHash } from 'node:crypto';

/** Stripe's prefix of each object the simulator serves. */
export const PREFIX = {
  charge: 'ch',
  refund: 're',
  customer: 'cus',
  balance_transaction: 'txn',
  payout: 'po',
  event: 'evt',
  bank_account: 'ba',
} as const;
export type StripeObject = keyof typeof PREFIX;

/** What a SANDBOX id looks like (printable ASCII), so a foreign id decodes to nothing. */
const SANDBOX_ID = /^[\x21-\x7e]{1,64}$/;

/** The Stripe id of a SANDBOX id. */
export function stripeId(object: StripeObject, sandboxId: string): string {
  return `${PREFIX[object]}_${Buffer.from(sandboxId, 'utf8').toString('hex')}`;
}

/** The SANDBOX id a Stripe id of `object` stands for, or null when it is no id of ours for that object. */
export function sandboxIdOf(object: StripeObject, id: string): string | null {
  const prefix = `${PREFIX[object]}_`;
  if (!id.startsWith(prefix)) return null;
  const hex = id.slice(prefix.length);
  if (hex === '' || hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex)) return null;
  const text = Buffer.from(hex, 'hex').toString('utf8');
  return SANDBOX_ID.test(text) ? text : null;
}

/** Sixteen stable letters and digits for any text (account ids, publishable keys). */
export function hashedSuffix(text: string): string {
  const digest = createHash('sha256').update(text).digest();
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return [...digest.subarray(0, 16)].map((b) => alphabet[b % alphabet.length] ?? '0').join('');
}

/** The connected account's id (`stripe_user_id`), stable per SANDBOX account. */
export const accountIdOf = (accountKey: string): string => `acct_1${hashedSuffix(`stripe-account:${accountKey}`).slice(0, 15)}`;
