/**
 * Bank feed transactions the platform accepted, kept as sent (migration 0042): written with the send job's completion,
 * read by GET /accounting/bank_feeds/transactions and its fetch.
 */
import type { Queryable } from '../db/pool.ts';

export interface BankFeedTransactionRow {
  id: string;
  bank_feed_account_id: string;
  transaction_id: string;
  line: Record<string, unknown>;
  /** created_at as keyset text (microseconds, UTC). */
  position_ts: string;
}

const COLUMNS = `id, bank_feed_account_id, transaction_id, line,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_ts`;

/** Keeps a batch's lines; one the feed account already has (same transaction_id) stays as first kept. */
export async function insertBankFeedTransactions(
  db: Queryable,
  batch: { connectionId: string; bankFeedAccountId: string; writeJobId: string; lines: { transactionId: string; line: Record<string, unknown> }[] },
): Promise<void> {
  // One JSON document rather than arrays per column: the batch is up to 1,000 lines, parsed by PostgreSQL in one pass.
  await db.query(
    `INSERT INTO bank_feed_transactions (connection_id, bank_feed_account_id, transaction_id, line, write_job_id)
     SELECT $1, $2, l.transaction_id, l.line, $3
       FROM ROWS FROM (jsonb_to_recordset($4::jsonb) AS (transaction_id text, line jsonb)) WITH ORDINALITY AS l(transaction_id, line, n)
      ORDER BY l.n
     ON CONFLICT (connection_id, bank_feed_account_id, transaction_id) DO NOTHING`,
    [
      batch.connectionId,
      batch.bankFeedAccountId,
      batch.writeJobId,
      JSON.stringify(batch.lines.map((l) => ({ transaction_id: l.transactionId, line: l.line }))),
    ],
  );
}

/** A connection's lines, newest first, keyset-paged on (created_at, id); one more than `limit` tells a next page. */
export async function listBankFeedTransactions(
  db: Queryable,
  params: { connectionId: string; bankFeedAccountId: string | null; from: { createdAt: string; id: string } | null; limit: number },
): Promise<BankFeedTransactionRow[]> {
  const result = await db.query<BankFeedTransactionRow>(
    `SELECT ${COLUMNS}
       FROM bank_feed_transactions
      WHERE connection_id = $1
        AND ($2::uuid IS NULL OR bank_feed_account_id = $2::uuid)
        AND ($3::timestamptz IS NULL OR (created_at, id) <= ($3::timestamptz, $4::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $5`,
    [params.connectionId, params.bankFeedAccountId, params.from?.createdAt ?? null, params.from?.id ?? null, params.limit + 1],
  );
  return result.rows;
}

export async function fetchBankFeedTransaction(db: Queryable, connectionId: string, id: string): Promise<BankFeedTransactionRow | null> {
  const result = await db.query<BankFeedTransactionRow>(`SELECT ${COLUMNS} FROM bank_feed_transactions WHERE connection_id = $1 AND id = $2`, [
    connectionId,
    id,
  ]);
  return result.rows[0] ?? null;
}
