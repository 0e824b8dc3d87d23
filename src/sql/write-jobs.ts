/** Write jobs: named, parameterised queries and the row ↔ domain mapping. */
import type { Queryable } from '../db/pool.ts';
import { statesLeadingTo, type JobOperation, type JobStatus, type WriteOperation } from './write-job-states.ts';
import type { Tenant } from '../tenants/types.ts';

/** The advisory lock a worker holds while it executes a job (src/writes/executor.ts); $1 is the job id. */
export const WRITE_JOB_LOCK_KEY_SQL = `hashtextextended('ledgerport-write:' || $1::text, 0)`;

export interface JobRequest {
  method: string;
  /** Path without the query string (it carries the access token). */
  path: string;
  body: unknown;
}

export interface JobResponse {
  status_code: number;
  body: unknown;
}

export interface WriteJob {
  id: string;
  organizationId: string;
  environment: Tenant['environment'];
  connectionId: string;
  objectType: string;
  operation: JobOperation;
  targetId: string | null;
  request: JobRequest;
  status: JobStatus;
  indeterminate: boolean;
  attempts: number;
  response: JobResponse | null;
  resultId: string | null;
  idempotencyKey: string | null;
  /** The X-Request-Id of the request that asked for it (log lines only). */
  requestId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WriteJobRow {
  id: string;
  organization_id: string;
  environment: Tenant['environment'];
  connection_id: string;
  object_type: string;
  operation: JobOperation;
  target_id: string | null;
  request: JobRequest;
  status: JobStatus;
  indeterminate: boolean;
  attempts: number;
  response_status: number | null;
  response: unknown;
  result_id: string | null;
  idempotency_key: string | null;
  request_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, organization_id, environment, connection_id, object_type, operation, target_id, request, status,
  indeterminate, attempts, response_status, response, result_id, idempotency_key, request_id, created_at, updated_at`;
/** The columns toWriteJob reads, for queries of write_jobs kept elsewhere (src/sql/read-jobs.ts). */
export const WRITE_JOB_COLUMNS = COLUMNS;

export function toWriteJob(row: WriteJobRow): WriteJob {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environment: row.environment,
    connectionId: row.connection_id,
    objectType: row.object_type,
    operation: row.operation,
    targetId: row.target_id,
    request: row.request,
    status: row.status,
    indeterminate: row.indeterminate,
    attempts: row.attempts,
    response: row.response_status === null ? null : { status_code: row.response_status, body: row.response },
    resultId: row.result_id,
    idempotencyKey: row.idempotency_key,
    requestId: row.request_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function one(rows: WriteJobRow[]): WriteJob | null {
  const row = rows[0];
  return row === undefined ? null : toWriteJob(row);
}

export interface NewWriteJob {
  tenant: Tenant;
  connectionId: string;
  objectType: string;
  operation: WriteOperation;
  targetId: string | null;
  request: JobRequest;
  idempotencyKey: string | null;
  /** The API request's id, for the worker's log lines. */
  requestId?: string | null;
}

/** The new job, or null when a job with the same Idempotency-Key exists already. */
export async function insertWriteJob(db: Queryable, job: NewWriteJob): Promise<WriteJob | null> {
  const result = await db.query<WriteJobRow>(
    `INSERT INTO write_jobs (organization_id, environment, connection_id, object_type, operation, target_id, request, idempotency_key, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (organization_id, environment, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      job.tenant.organizationId,
      job.tenant.environment,
      job.connectionId,
      job.objectType,
      job.operation,
      job.targetId,
      JSON.stringify(job.request),
      job.idempotencyKey,
      job.requestId ?? null,
    ],
  );
  return one(result.rows);
}

export async function findJobByIdempotencyKey(db: Queryable, tenant: Tenant, key: string): Promise<WriteJob | null> {
  const result = await db.query<WriteJobRow>(
    `SELECT ${COLUMNS} FROM write_jobs WHERE organization_id = $1 AND environment = $2 AND idempotency_key = $3`,
    [tenant.organizationId, tenant.environment, key],
  );
  return one(result.rows);
}

/** A job of this tenant; another tenant's id is simply not found. */
export async function findJobForTenant(db: Queryable, tenant: Tenant, id: string): Promise<WriteJob | null> {
  const result = await db.query<WriteJobRow>(`SELECT ${COLUMNS} FROM write_jobs WHERE id = $1 AND organization_id = $2 AND environment = $3`, [
    id,
    tenant.organizationId,
    tenant.environment,
  ]);
  return one(result.rows);
}

export async function loadWriteJob(db: Queryable, id: string): Promise<WriteJob | null> {
  const result = await db.query<WriteJobRow>(`SELECT ${COLUMNS} FROM write_jobs WHERE id = $1`, [id]);
  return one(result.rows);
}

/**
 * Takes the job for an attempt. A job found in_progress was being worked on by
 * a worker that died: its platform call may have gone through, so it becomes
 * indeterminate before anything is sent again.
 */
export async function claimWriteJob(db: Queryable, id: string): Promise<WriteJob | null> {
  const result = await db.query<WriteJobRow>(
    `UPDATE write_jobs
        SET status = 'in_progress', attempts = attempts + 1, indeterminate = indeterminate OR status = 'in_progress',
            started_at = COALESCE(started_at, clock_timestamp()), updated_at = clock_timestamp()
      WHERE id = $1 AND status = ANY($2::text[])
      RETURNING ${COLUMNS}`,
    [id, statesLeadingTo('in_progress')],
  );
  return one(result.rows);
}

/** The write may be on the platform: the next attempt looks it up first, and syncs wait for its outcome (findUnresolvedWrite). */
export async function markIndeterminate(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE write_jobs SET indeterminate = true, updated_at = clock_timestamp() WHERE id = $1`, [id]);
}

/** Back to pending after a failure that a later attempt may overcome. */
export async function releaseForRetry(db: Queryable, id: string, indeterminate: boolean): Promise<void> {
  await db.query(
    `UPDATE write_jobs SET status = 'pending', indeterminate = indeterminate OR $3, updated_at = clock_timestamp()
      WHERE id = $1 AND status = ANY($2::text[])`,
    [id, statesLeadingTo('pending'), indeterminate],
  );
}

export async function completeWriteJob(
  db: Queryable,
  id: string,
  outcome: { response: JobResponse; resultId: string | null },
): Promise<WriteJob | null> {
  const result = await db.query<WriteJobRow>(
    `UPDATE write_jobs
        SET status = 'completed', response_status = $3, response = $4, result_id = $5,
            finished_at = clock_timestamp(), updated_at = clock_timestamp()
      WHERE id = $1 AND status = ANY($2::text[])
      RETURNING ${COLUMNS}`,
    [id, statesLeadingTo('completed'), outcome.response.status_code, JSON.stringify(outcome.response.body), outcome.resultId],
  );
  return one(result.rows);
}

export async function failWriteJob(db: Queryable, id: string, response: JobResponse): Promise<WriteJob | null> {
  const result = await db.query<WriteJobRow>(
    `UPDATE write_jobs
        SET status = 'failed', response_status = $3, response = $4, finished_at = clock_timestamp(), updated_at = clock_timestamp()
      WHERE id = $1 AND status = ANY($2::text[])
      RETURNING ${COLUMNS}`,
    [id, statesLeadingTo('failed'), response.status_code, JSON.stringify(response.body)],
  );
  return one(result.rows);
}

export interface JobFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export async function insertJobFile(db: Queryable, jobId: string, file: JobFile): Promise<void> {
  await db.query('INSERT INTO write_job_files (job_id, file_name, content_type, content) VALUES ($1, $2, $3, $4)', [
    jobId,
    file.fileName,
    file.contentType,
    file.content,
  ]);
}

export async function loadJobFile(db: Queryable, jobId: string): Promise<JobFile | null> {
  const result = await db.query<{ file_name: string; content_type: string; content: Buffer }>(
    'SELECT file_name, content_type, content FROM write_job_files WHERE job_id = $1',
    [jobId],
  );
  const row = result.rows[0];
  return row === undefined ? null : { fileName: row.file_name, contentType: row.content_type, content: row.content };
}

/** Unfinished jobs untouched for a while: their queue job was lost or gave up (the sweeper re-queues them). */
export async function staleOpenJobs(db: Queryable, idleSeconds: number, limit: number): Promise<{ id: string; connection_id: string }[]> {
  const result = await db.query<{ id: string; connection_id: string }>(
    `SELECT id, connection_id FROM write_jobs j
      WHERE status IN ('pending', 'in_progress') AND updated_at < clock_timestamp() - make_interval(secs => $1)
        -- Jobs of a paused connection wait in the queue for the pause's end (src/connections/platform-pause.ts).
        AND NOT EXISTS (SELECT 1 FROM platform_pauses p WHERE p.connection_id = j.connection_id AND p.paused_until > clock_timestamp())
      ORDER BY updated_at LIMIT $2`,
    [idleSeconds, limit],
  );
  return result.rows;
}

/** Idempotency keys bind a retry to its job for 24 hours, like the stored answers of the edge. */
export async function forgetOldIdempotencyKeys(db: Queryable, olderThanSeconds: number): Promise<number> {
  const result = await db.query(
    `UPDATE write_jobs SET idempotency_key = NULL
      WHERE idempotency_key IS NOT NULL AND created_at < clock_timestamp() - make_interval(secs => $1)`,
    [olderThanSeconds],
  );
  return result.rowCount ?? 0;
}

/**
 * A write of this connection whose platform call may have gone through but whose
 * write-through has not happened: its worker died mid-attempt (in_progress, its job
 * lock free) or it waits for a retry after an indeterminate attempt. A sync must
 * not store pages meanwhile: it would announce the record without the job's
 * job_id, and the job's re-run would then find it unchanged and announce nothing.
 * The lock is only probed on in_progress rows (CASE fixes the order), so live jobs are never touched.
 */
export async function findUnresolvedWrite(db: Queryable, connectionId: string): Promise<string | null> {
  const result = await db.query<{ id: string }>(
    `SELECT id FROM write_jobs
      WHERE connection_id = $1 AND status IN ('pending', 'in_progress') AND updated_at > clock_timestamp() - interval '15 minutes'
        -- In progress and indeterminate: its platform call failed in a way that may have applied it, and its executor
        -- has let go of the page lock but not recorded the outcome yet (src/writes/executor.ts marks it first).
        AND CASE WHEN status = 'pending' THEN indeterminate
                 ELSE indeterminate OR pg_try_advisory_xact_lock(hashtextextended('ledgerport-write:' || id::text, 0)) END
      LIMIT 1`,
    [connectionId],
  );
  return result.rows[0]?.id ?? null;
}

/** Back to pending until a platform pause ends; the attempt that met the pause does not count (nothing was done). */
export async function releaseForPause(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE write_jobs SET status = 'pending', attempts = GREATEST(attempts - 1, 0), updated_at = clock_timestamp()
      WHERE id = $1 AND status = ANY($2::text[])`,
    [id, statesLeadingTo('pending')],
  );
}
