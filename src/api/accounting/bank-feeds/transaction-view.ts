/**
 * A bank feed transaction as GET /accounting/bank_feeds/transactions serves it: the reference's fields (2024-08-31,
 * "List Bank Feed Transactions"), from the line the client sent and the platform accepted (src/sql/bank-feed-transactions.ts).
 */
import { Type, type Static } from 'typebox';
import { StringEnum } from '../../../model/shared.ts';
import { REFERENCE_TRANSACTION_TYPES } from '../../../writes/bank-feed-lines.ts';
import type { BankFeedTransactionRow } from '../../../sql/bank-feed-transactions.ts';

const NullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const BankFeedTransactionSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Service id of the line.' }),
    bank_feed_account_id: Type.String({ format: 'uuid', description: 'Service id of the bank feed account it was sent to.' }),
    transaction_id: Type.String({ description: "The institution's id of the line (internal_transaction_id when sent)." }),
    posted_at: NullableText('When the bank posted the line: posted_at as sent, else transaction_date.'),
    transaction_date: NullableText('When the transaction happened: transaction_date as sent, else posted_at.'),
    amount: Type.Number({ description: 'Signed as sent: money in positive, money out negative.' }),
    debit_credit_memo: StringEnum(['CREDIT', 'DEBIT'], 'As sent, else from the sign of amount.'),
    description: Type.String(),
    interest_amount: Type.Null({ description: 'Not taken on input: always null.' }),
    memo: NullableText("The line's reference (such as a check number), as sent."),
    payee: NullableText('payee_name (or payee) as sent.'),
    platform_ingested: Type.Boolean({ description: 'Always true: only lines the platform accepted (or already had) are kept.' }),
    principal_amount: Type.Null({ description: 'Not taken on input: always null.' }),
    transaction_type: Type.Union([StringEnum(REFERENCE_TRANSACTION_TYPES, ''), Type.Null()], { description: 'As sent; null when not sent.' }),
    last_synced_at: Type.String({ format: 'date-time', description: 'When the platform accepted the batch that carried it.' }),
  },
  { additionalProperties: false },
);

export type BankFeedTransaction = Static<typeof BankFeedTransactionSchema>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function bankFeedTransactionView(row: BankFeedTransactionRow): BankFeedTransaction {
  const { line } = row;
  const type = REFERENCE_TRANSACTION_TYPES.find((t) => t === line.transaction_type) ?? null;
  return {
    id: row.id,
    bank_feed_account_id: row.bank_feed_account_id,
    transaction_id: row.transaction_id,
    posted_at: text(line.posted_at),
    transaction_date: text(line.transaction_date),
    amount: typeof line.amount === 'number' ? line.amount : 0,
    debit_credit_memo: line.debit_credit_memo === 'DEBIT' ? 'DEBIT' : 'CREDIT',
    description: text(line.description) ?? '',
    interest_amount: null,
    memo: text(line.memo),
    payee: text(line.payee),
    platform_ingested: true,
    principal_amount: null,
    transaction_type: type,
    last_synced_at: row.position_ts,
  };
}
