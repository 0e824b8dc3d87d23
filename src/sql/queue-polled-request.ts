/**
 * A job's request to the platform, queued once: a job that asks again under the same key (it restarted, or it looks
 * whether the answer came) gets the row already there.
 */
import type { Queryable } from '../db/pool.ts';

export type PolledWaiter = { syncRunId: string } | { writeJobId: string };

export interface PolledRequest {
  id: string;
  status: 'pending' | 'sent' | 'answered' | 'failed';
  answer: string | null;
  error: string | null;
}

interface Row {
  id: string;
  status: PolledRequest['status'];
  answer: string | null;
  error: string | null;
}

const rowOf = (row: Row): PolledRequest => ({ id: row.id, status: row.status, answer: row.answer, error: row.error });

export async function findPolledRequest(db: Queryable, connectionId: string, key: string): Promise<PolledRequest | null> {
  const { rows } = await db.query<Row>('SELECT id, status, answer, error FROM polled_requests WHERE connection_id = $1 AND request_key = $2', [
    connectionId,
    key,
  ]);
  return rows[0] === undefined ? null : rowOf(rows[0]);
}

export async function queuePolledRequest(
  db: Queryable,
  request: { id: string; connectionId: string; key: string; waiter: PolledWaiter; body: string },
): Promise<PolledRequest> {
  await db.query(
    `INSERT INTO polled_requests (id, connection_id, request_key, sync_run_id, write_job_id, request, status)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending') ON CONFLICT (connection_id, request_key) DO NOTHING`,
    [
      request.id,
      request.connectionId,
      request.key,
      'syncRunId' in request.waiter ? request.waiter.syncRunId : null,
      'writeJobId' in request.waiter ? request.waiter.writeJobId : null,
      request.body,
    ],
  );
  const queued = await findPolledRequest(db, request.connectionId, request.key);
  if (queued === null) throw new Error('polled request not queued');
  return queued;
}

/** Drops a request whose answer was a refusal, so the job's next attempt asks again. */
export async function forgetPolledRequest(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM polled_requests WHERE id = $1', [id]);
}
