/**
 * ledgerport_http_request_duration_seconds: every answered request, labelled by its route's template (never the
 * raw URL, so the series stay bounded whatever clients send), method and status. Requests no route matched share
 * the one route label `unmatched`; methods outside HTTP's usual set share `other`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpRequestDuration } from '../metrics/registry.ts';

export const UNMATCHED_ROUTE = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The labels of one answered request. */
export function requestLabels(request: Pick<FastifyRequest, 'method' | 'is404' | 'routeOptions'>, status: number): Record<string, string> {
  const template = request.is404 ? undefined : request.routeOptions.url;
  return {
    route: template === undefined || template === '' ? UNMATCHED_ROUTE : template,
    method: METHODS.has(request.method) ? request.method : 'other',
    status: String(status),
  };
}

export function installRequestMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    httpRequestDuration.observe(requestLabels(request, reply.statusCode), reply.elapsedTime / 1000);
    done();
  });
}
