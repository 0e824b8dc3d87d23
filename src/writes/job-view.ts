/** How a write job is shown: GET /jobs/:id, the JOB_COMPLETED webhook and the asynchronous response. */
import { Type, type Static } from 'typebox';
import type { WriteJob } from '../sql/write-jobs.ts';
import { StringEnum } from '../model/shared.ts';
import { JOB_STATUSES } from './job-states.ts';

export const JobStatusSchema = StringEnum(JOB_STATUSES, 'pending, in_progress, completed or failed.');

export const JobSchema = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Job id; also the X-Service-Job-Id header of the write and job_id of its entity webhooks.' }),
  status: JobStatusSchema,
  request: Type.Object({
    method: Type.String(),
    path: Type.String({ description: 'Path of the write, without the query string.' }),
    body: Type.Unknown({ description: 'The request body as sent (for uploads: file_name, content_type and size).' }),
  }),
  response: Type.Union([Type.Object({
    status_code: Type.Integer({ description: 'The HTTP status a synchronous answer had or would have had.' }),
    body: Type.Unknown({ description: 'The synchronous answer: the written object, or the error body.' }),
  }), Type.Null()], { description: 'Null until the job has finished.' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}, { description: 'A write passed through to the platform.' });

export type JobView = Static<typeof JobSchema>;

export function jobView(job: WriteJob): JobView {
  return {
    id: job.id, status: job.status, request: job.request, response: job.response,
    created_at: job.createdAt.toISOString(), updated_at: job.updatedAt.toISOString(),
  };
}

export const AsyncResponseSchema = Type.Object({
  async_response: Type.Object({
    id: Type.String({ format: 'uuid', description: 'Job id.' }),
    status: JobStatusSchema,
    response_url: Type.String({ description: 'GET it (with the same client credentials) for the job and, once finished, its result.' }),
  }),
}, { description: 'The write was accepted and runs in the background; JOB_COMPLETED announces its end.' });

export function asyncResponse(job: WriteJob, publicUrl: string): { async_response: { id: string; status: string; response_url: string } } {
  return { async_response: { id: job.id, status: job.status, response_url: `${publicUrl}/versioned/jobs/${job.id}` } };
}
