/**
 * Bank feed statement lines as clients send them: our names, or the reference's (docs/reference.md, "Requests").
 * The endpoint checks a batch with `feedLine` before queuing it, and the write job turns the stored body into the
 * connector's input with the same function, so both read the body alike.
 */
import type { BankFeedTransactionInput } from '../platforms/connector.ts';
import { invalidField } from './check-input.ts';

/** The reference's transaction_type values; the service checks them against the amount's sign and sends the sign. */
export const REFERENCE_TRANSACTION_TYPES = ['credit', 'debit', 'fee', 'deposit', 'transfer', 'payment', 'interest', 'unknown'] as const;
const MONEY_IN: ReadonlySet<string> = new Set(['credit', 'deposit', 'CREDIT']);
const MONEY_OUT: ReadonlySet<string> = new Set(['debit', 'fee', 'payment', 'DEBIT']);

export interface SentFeedLine {
  internal_transaction_id?: string;
  transaction_id?: string;
  transaction_date?: string;
  posted_at?: string;
  amount: number;
  description: string;
  payee_name?: string | null;
  payee?: string | null;
  reference?: string | null;
  running_balance?: number | null;
  transaction_type?: string;
  debit_credit_memo?: string;
}

function oneOf<T>(at: string, ours: [string, T | undefined], theirs: [string, T | undefined]): T {
  const [ourName, ourValue] = ours;
  const [theirName, theirValue] = theirs;
  if (ourValue !== undefined && theirValue !== undefined)
    throw invalidField(`${at}.${theirName}`, `is the reference's name for ${ourName}: send one of them, not both`);
  const value = ourValue ?? theirValue;
  if (value === undefined) throw invalidField(`${at}.${ourName}`, `is required (or ${theirName}, the reference's name for it)`);
  return value;
}

/** One line in the connector's terms; `at` is the line's path in the request body for errors. */
export function feedLine(line: SentFeedLine, at: string): BankFeedTransactionInput {
  const id = oneOf(at, ['internal_transaction_id', line.internal_transaction_id], ['transaction_id', line.transaction_id]);
  // The reference dates a line by posted_at and may add the transaction_date beside it: a statement line is dated
  // when the bank posted it, and the transaction cannot come after that.
  let date: string;
  if (line.posted_at !== undefined) {
    if (line.transaction_date !== undefined && Date.parse(line.transaction_date) > Date.parse(line.posted_at)) {
      throw invalidField(`${at}.transaction_date`, 'is after posted_at: a transaction is posted on or after its date');
    }
    date = line.posted_at;
  } else {
    date = oneOf(at, ['transaction_date', line.transaction_date], ['posted_at', line.posted_at]);
  }
  for (const [field, value] of [
    ['transaction_type', line.transaction_type],
    ['debit_credit_memo', line.debit_credit_memo],
  ] as const) {
    if (value === undefined) continue;
    if (MONEY_IN.has(value) && line.amount < 0)
      throw invalidField(
        `${at}.${field}`,
        `is ${value}, money in, but amount is negative (amounts are signed: money in positive, money out negative)`,
      );
    if (MONEY_OUT.has(value) && line.amount > 0)
      throw invalidField(
        `${at}.${field}`,
        `is ${value}, money out, but amount is positive (amounts are signed: money in positive, money out negative)`,
      );
  }
  const payee =
    line.payee_name !== undefined && line.payee !== undefined
      ? oneOf(at, ['payee_name', line.payee_name], ['payee', line.payee])
      : (line.payee_name ?? line.payee);
  const out: BankFeedTransactionInput = { internal_transaction_id: id, transaction_date: date, amount: line.amount, description: line.description };
  if (payee !== undefined) out.payee_name = payee;
  if (line.reference !== undefined) out.reference = line.reference;
  if (line.running_balance !== undefined) out.running_balance = line.running_balance;
  return out;
}

/**
 * A sent line in the reference's fields, as GET /accounting/bank_feeds/transactions serves it: the date the client sent
 * under each name (posted_at is the line's date when only transaction_date was sent), the direction from the signed
 * amount, memo from our `reference`. Interest and principal split is not taken on input: null.
 */
export function referenceLine(sent: SentFeedLine, line: BankFeedTransactionInput): Record<string, unknown> {
  return {
    posted_at: sent.posted_at ?? line.transaction_date,
    transaction_date: sent.transaction_date ?? line.transaction_date,
    amount: line.amount,
    debit_credit_memo: sent.debit_credit_memo ?? (line.amount < 0 ? 'DEBIT' : 'CREDIT'),
    description: line.description,
    interest_amount: null,
    memo: line.reference ?? null,
    payee: line.payee_name ?? null,
    principal_amount: null,
    transaction_type: sent.transaction_type ?? null,
  };
}
