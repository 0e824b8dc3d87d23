import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { CONTENT_TYPE, renderMetrics } from './exposition.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/metrics',
  auth: 'admin',
  tags: ['Admin'],
  summary: 'Prometheus metrics of this process (text exposition format 0.0.4); needs the admin token: Authorization: Bearer <ADMIN_TOKEN>.',
  description:
    'Answers text/plain; version=0.0.4. Counters and histograms are per process (scrape every API process, and every ' +
    'worker process at its METRICS_PORT; ledgerport_process_info{role} says which one answered). The gauges ledgerport_webhook_deliveries_open{status} and ' +
    'ledgerport_webhook_deliveries_failed_recent (failed in the last hour) are read from the database at scrape time and ' +
    'cover every organisation, so every process reports the same values.',
  success: { status: 200, contentType: 'text/plain', schema: Type.String({ description: 'Prometheus text exposition format 0.0.4.' }) },
  errors: ['INVALID_ADMIN_TOKEN'],
});

export default defineEndpoint(contract, async (request, reply) => {
  const body = await renderMetrics(request.server.services.pool);
  // A string body with its own content type is sent as is, not serialised as JSON.
  void reply.type(CONTENT_TYPE);
  return body;
});
