import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { metrics } from '../../metrics/registry.ts';
import { webhookGaugeLines } from '../../webhooks/admin.ts';

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export const contract = defineContract({
  method: 'GET', url: '/metrics', auth: 'admin', tags: ['Admin'],
  summary: 'Prometheus metrics of this process (text exposition format 0.0.4); needs the admin token: Authorization: Bearer <ADMIN_TOKEN>.',
  description: 'Answers text/plain; version=0.0.4. Counters and histograms are per process (scrape every API process; '
    + 'ledgerport_process_info{role} says which one answered). The gauges ledgerport_webhook_deliveries_open{status} and '
    + 'ledgerport_webhook_deliveries_failed_recent (failed in the last hour) are read from the database at scrape time and '
    + 'cover every organisation, so every process reports the same values.',
  success: { status: 200, schema: Type.String({ description: 'Prometheus text exposition format 0.0.4.' }) },
  errors: ['INVALID_ADMIN_TOKEN'],
});

/** The --role this process was started with (src/main.ts), `all` when none. */
export function processRole(argv: readonly string[] = process.argv): string {
  for (const [i, arg] of argv.entries()) {
    if (arg.startsWith('--role=')) return arg.slice('--role='.length);
    if (arg === '--role' && argv[i + 1] !== undefined) return argv[i + 1] ?? 'all';
  }
  return 'all';
}

function labelValue(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

export default defineEndpoint(contract, async (request, reply) => {
  const gauges = await webhookGaugeLines(request.server.services.pool);
  const info = [
    '# HELP ledgerport_process_info The process answering this scrape; role is all, api or worker.',
    '# TYPE ledgerport_process_info gauge',
    `ledgerport_process_info{role="${labelValue(processRole())}"} 1`,
  ];
  // A string body with its own content type is sent as is, not serialised as JSON.
  void reply.type(CONTENT_TYPE);
  return `${metrics.render()}${[...gauges, ...info].join('\n')}\n`;
});
