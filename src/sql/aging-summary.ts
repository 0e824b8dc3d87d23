/**
 * Aging of open bills (payables) or invoices (receivables) as of a moment, from the stored copy: what each document
 * still owed then (its total less the payments and credits allocated on or before that moment), bucketed by days past
 * its due date, summed per party and currency. Computed here, not read from the platform, so every platform answers it
 * alike and a past date needs no historical report.
 *
 * One statement over the connection's live documents of the type (the (connection_id, object_type) prefix of the
 * primary key); the allocation arrays are unnested per document. Void and draft documents owe nothing.
 */
import type { Queryable } from '../db/pool.ts';

export interface AgingRow {
  party_id: string | null;
  parent_id: string | null;
  currency_code: string | null;
  current: string;
  days30: string;
  days60: string;
  days90: string;
  days91plus: string;
  total: string;
}

export async function agingSummary(
  db: Queryable,
  connectionId: string,
  documents: { type: 'bill' | 'invoice'; party: 'vendor_id' | 'customer_id'; partyType: 'vendor' | 'customer' },
  asOf: Date,
): Promise<AgingRow[]> {
  const result = await db.query<AgingRow>(
    `WITH open_documents AS (
       SELECT d.data ->> $3 AS party_id,
              d.data ->> 'currency_code' AS currency_code,
              floor(extract(epoch FROM ($4::timestamptz - (d.data ->> 'due_date')::timestamptz)) / 86400) AS days_past_due,
              (d.data ->> 'total_amount')::numeric - COALESCE((
                SELECT sum((a ->> 'allocated_amount')::numeric)
                  FROM jsonb_array_elements(COALESCE(d.data -> 'linked_payments', '[]'::jsonb) || COALESCE(d.data -> 'linked_credit_memos', '[]'::jsonb)) a
                 WHERE (a ->> 'allocated_date')::timestamptz <= $4), 0) AS owed
         FROM records d
        WHERE d.connection_id = $1 AND d.object_type = $2 AND d.deleted_at IS NULL
          AND d.data ->> 'status' NOT IN ('void', 'draft')
          AND (d.data ->> 'issue_date')::timestamptz <= $4
     )
     SELECT o.party_id, p.data ->> 'parent_id' AS parent_id, o.currency_code,
            COALESCE(sum(owed) FILTER (WHERE days_past_due IS NULL OR days_past_due <= 0), 0)::text AS current,
            COALESCE(sum(owed) FILTER (WHERE days_past_due BETWEEN 1 AND 30), 0)::text AS days30,
            COALESCE(sum(owed) FILTER (WHERE days_past_due BETWEEN 31 AND 60), 0)::text AS days60,
            COALESCE(sum(owed) FILTER (WHERE days_past_due BETWEEN 61 AND 90), 0)::text AS days90,
            COALESCE(sum(owed) FILTER (WHERE days_past_due > 90), 0)::text AS days91plus,
            sum(owed)::text AS total
       FROM open_documents o
       LEFT JOIN records p ON p.connection_id = $1 AND p.object_type = $5 AND p.id::text = o.party_id
      WHERE o.owed > 0
      GROUP BY o.party_id, p.data ->> 'parent_id', o.currency_code
      ORDER BY o.party_id NULLS LAST, o.currency_code`,
    [connectionId, documents.type, documents.party, asOf, documents.partyType],
  );
  return result.rows;
}
