/**
 * A read asked with response_mode=async (the monthly statements): the answer is read at once from the stored copy,
 * kept as a finished job and announced with JOB_COMPLETED like a write's, and the client gets the async_response.
 * Everything is in the database (the job row, the event), so GET /jobs/:id finds it from any process, under the
 * same tenant guard as a write's job.
 */
import type { CoreServices } from '../core-services.ts';
import { withTransaction } from '../db/pool.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { insertFinishedReadJob } from '../sql/read-jobs.ts';
import type { JobRequest, JobResponse, WriteJob } from '../sql/write-jobs.ts';
import { announce } from './executor.ts';

export async function finishedReadJob(
  services: CoreServices,
  connection: ConnectionRecord,
  objectType: string,
  request: JobRequest,
  response: JobResponse,
): Promise<WriteJob> {
  return withTransaction(services.pool, async (db) => {
    const job = await insertFinishedReadJob(db, {
      tenant: { organizationId: connection.organizationId, environment: connection.environment },
      connectionId: connection.id,
      objectType,
      request,
      response,
    });
    await announce(db, services, connection, job);
    return job;
  });
}
