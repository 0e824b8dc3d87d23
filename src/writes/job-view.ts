/** How a write job is shown: GET /jobs/:id, the JOB_COMPLETED webhook and the asynchronous response. */
import { Type, type Static } from 'typebox';
import type { WriteJob } from '../sql/write-jobs.ts';
import { StringEnum } from '../model/shared.ts';
import type { JobStatus } from '../sql/write-job-states.ts';

/** The reference's job status vocabulary (docs/reference.md, "Jobs"): prequeued, pending, success, failure. */
export const JOB_VIEW_STATUSES = ['prequeued', 'pending', 'success', 'failure'] as const;
export type JobViewStatus = (typeof JOB_VIEW_STATUSES)[number];

export const JobStatusSchema = StringEnum(
  JOB_VIEW_STATUSES,
  'pending while the write waits or runs (retries included), then success or failure; prequeued is not used.',
);

/** Our states (src/sql/write-job-states.ts) in the reference's words. */
const VIEW_STATUS: Readonly<Record<JobStatus, JobViewStatus>> = {
  pending: 'pending',
  in_progress: 'pending',
  completed: 'success',
  failed: 'failure',
};

export const JobSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Job id; also the X-Service-Job-Id header of the write and job_id of its entity webhooks.' }),
    status: JobStatusSchema,
    request: Type.Object({
      method: Type.String(),
      url: Type.String({
        description:
          "Address of the request: a write's without its query string, a statement read's with its query but no access_token (the access_token is never kept).",
      }),
      body: Type.Unknown({ description: 'The request body as sent (for uploads: file_name, content_type and size).' }),
      idempotency_key: Type.Optional(Type.String({ description: 'The Idempotency-Key header, when the write had one.' })),
    }),
    response: Type.Optional(
      Type.Object(
        {
          http_status: Type.Integer({ description: 'The HTTP status a synchronous answer had or would have had.' }),
          body: Type.Unknown({ description: 'The synchronous answer: the written object, or the error body.' }),
        },
        { description: 'Present once the job has finished.' },
      ),
    ),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { description: "A write passed through to the platform, as the reference's job object." },
);

export type JobView = Static<typeof JobSchema>;

export function jobView(job: WriteJob, publicUrl: string): JobView {
  return {
    id: job.id,
    status: VIEW_STATUS[job.status],
    request: {
      method: job.request.method,
      url: `${publicUrl}${job.request.path}`,
      body: job.request.body,
      ...(job.idempotencyKey !== null ? { idempotency_key: job.idempotencyKey } : {}),
    },
    ...(job.response !== null ? { response: { http_status: job.response.status_code, body: job.response.body } } : {}),
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
  };
}

export const AsyncResponseSchema = Type.Object(
  {
    async_response: Type.Object({
      id: Type.String({ format: 'uuid', description: 'Job id.' }),
      status: JobStatusSchema,
      response_url: Type.String({ description: 'GET it (with the same client credentials) for the job and, once finished, its result.' }),
    }),
  },
  { description: 'The write was accepted and runs in the background; JOB_COMPLETED announces its end.' },
);

export function asyncResponse(job: WriteJob, publicUrl: string): { async_response: { id: string; status: JobViewStatus; response_url: string } } {
  return { async_response: { id: job.id, status: VIEW_STATUS[job.status], response_url: `${publicUrl}/versioned/jobs/${job.id}` } };
}
