/** The job of a read answered with response_mode=async: inserted finished, with the answer the read gave. */
import type { Queryable } from '../db/pool.ts';
import type { Tenant } from '../tenants/types.ts';
import { WRITE_JOB_COLUMNS, toWriteJob, type JobRequest, type JobResponse, type WriteJob, type WriteJobRow } from './write-jobs.ts';

export interface FinishedReadJob {
  tenant: Tenant;
  connectionId: string;
  objectType: string;
  request: JobRequest;
  response: JobResponse;
}

export async function insertFinishedReadJob(db: Queryable, job: FinishedReadJob): Promise<WriteJob> {
  const result = await db.query<WriteJobRow>(
    `INSERT INTO write_jobs (organization_id, environment, connection_id, object_type, operation, request, status,
       response_status, response, started_at, finished_at)
     VALUES ($1, $2, $3, $4, 'read', $5, 'completed', $6, $7, clock_timestamp(), clock_timestamp())
     RETURNING ${WRITE_JOB_COLUMNS}`,
    [
      job.tenant.organizationId,
      job.tenant.environment,
      job.connectionId,
      job.objectType,
      JSON.stringify(job.request),
      job.response.status_code,
      JSON.stringify(job.response.body),
    ],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('INSERT … RETURNING gave no row');
  return toWriteJob(row);
}
