import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { findJobForTenant } from '../../sql/write-jobs.ts';
import { JobSchema, jobView } from '../../writes/job-view.ts';
import { isUuid } from '../../writes/check-input.ts';
import { requireTenant } from '../../http/auth.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/jobs/:id',
  auth: 'client',
  tags: ['Jobs'],
  summary: 'Fetch a write job',
  description:
    'The job of a write (its id is the X-Service-Job-Id header and async_response.id): status, the request, and once finished the response a synchronous call would have had.',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
  success: { status: 200, schema: JobSchema },
  errors: ['INVALID_CREDENTIALS', 'VALIDATION_ERROR', 'RESOURCE_NOT_FOUND', 'RATE_LIMIT_EXCEEDED'],
});

export default defineEndpoint(contract, async (request) => {
  const { id } = request.params;
  const job = isUuid(id) ? await findJobForTenant(request.server.services.pool, requireTenant(request), id) : null;
  if (job === null)
    throw new ServiceError('RESOURCE_NOT_FOUND', `No job with id ${id} for these client credentials.`, {
      source: 'service',
      field: 'id',
      location: 'params',
    });
  // The reference answers the job object itself, with no wrapper key (docs/reference.md, "Jobs").
  return jobView(job, request.server.services.config.publicUrl);
});
