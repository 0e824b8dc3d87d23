/** Writes a batch of API request log rows in one statement (src/http/request-log.ts buffers them). */
import type { Queryable } from '../db/pool.ts';

export interface RequestLogEntry {
  id: string;
  organizationId: string;
  environment: string;
  createdAt: Date;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  connectionId: string | null;
  errorCode: string | null;
}

/** One multi-row INSERT through unnest: one round trip and one plan whatever the batch size. */
export async function insertRequestLogs(db: Queryable, entries: readonly RequestLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `INSERT INTO request_logs (id, organization_id, environment, created_at, method, route, status, duration_ms, request_id, connection_id, error_code)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::smallint[], $8::real[], $9::text[],
                          $10::uuid[], $11::text[])`,
    [
      entries.map((e) => e.id),
      entries.map((e) => e.organizationId),
      entries.map((e) => e.environment),
      entries.map((e) => e.createdAt),
      entries.map((e) => e.method),
      entries.map((e) => e.route),
      entries.map((e) => e.status),
      entries.map((e) => e.durationMs),
      entries.map((e) => e.requestId),
      entries.map((e) => e.connectionId),
      entries.map((e) => e.errorCode),
    ],
  );
}
