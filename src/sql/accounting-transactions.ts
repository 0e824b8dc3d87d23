/**
 * The accounting transactions view (GET /accounting/transactions): the stored documents of a connection that move
 * money, of the types the caller names, newest sync first, keyset-paged on (last_synced_at, id).
 */
import type { Queryable } from '../db/pool.ts';

export interface AccountingTransactionRow {
  id: string;
  platform_id: string;
  object_type: string;
  /** The document's transaction_date, or issue_date (sales receipts). */
  transaction_date: string | null;
  platform_url: string | null;
  last_synced_at: Date;
  raw: Record<string, unknown> | null;
  /** last_synced_at with microseconds, for the next page's cursor. */
  position_ts: string;
}

const COLUMNS = (withRaw: boolean) => `id, platform_id, object_type,
  COALESCE(data->>'transaction_date', data->>'issue_date') AS transaction_date, data->>'platform_url' AS platform_url,
  last_synced_at, ${withRaw ? 'raw' : 'NULL::jsonb AS raw'},
  to_char(last_synced_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_ts`;

export interface AccountingTransactionsQuery {
  connectionId: string;
  types: readonly string[];
  from: { createdAt: string; id: string } | null;
  limit: number;
  withRaw: boolean;
  updatedAtMin: string | null;
  updatedAtMax: string | null;
  lastSyncedAtMin: string | null;
}

/** One page and the first row of the next (limit + 1 rows). */
export async function listAccountingTransactions(db: Queryable, q: AccountingTransactionsQuery): Promise<AccountingTransactionRow[]> {
  const result = await db.query<AccountingTransactionRow>(
    `SELECT ${COLUMNS(q.withRaw)}
       FROM records
      WHERE connection_id = $1 AND object_type = ANY($2::text[]) AND deleted_at IS NULL
        AND ($3::timestamptz IS NULL OR (last_synced_at, id) <= ($3::timestamptz, $4::uuid))
        AND ($6::timestamptz IS NULL OR updated_at >= $6::timestamptz)
        AND ($7::timestamptz IS NULL OR updated_at <= $7::timestamptz)
        AND ($8::timestamptz IS NULL OR last_synced_at >= $8::timestamptz)
      ORDER BY last_synced_at DESC, id DESC
      LIMIT $5`,
    [q.connectionId, q.types, q.from?.createdAt ?? null, q.from?.id ?? null, q.limit + 1, q.updatedAtMin, q.updatedAtMax, q.lastSyncedAtMin],
  );
  return result.rows;
}

/** The documents of these types with this service id or platform id (a platform id may name documents of several types). */
export async function findAccountingTransactions(
  db: Queryable,
  connectionId: string,
  types: readonly string[],
  by: 'service' | 'platform',
  id: string,
  withRaw: boolean,
): Promise<AccountingTransactionRow[]> {
  const result = await db.query<AccountingTransactionRow>(
    `SELECT ${COLUMNS(withRaw)}
       FROM records
      WHERE connection_id = $1 AND object_type = ANY($2::text[]) AND deleted_at IS NULL
        AND ${by === 'service' ? 'id::text = $3' : 'platform_id = $3'}
      ORDER BY object_type`,
    [connectionId, types, id],
  );
  return result.rows;
}
