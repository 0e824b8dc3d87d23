/**
 * GET /metrics in a worker-only process (--role=worker has no API server): a
 * bare HTTP listener on METRICS_PORT, under the same admin token and with the
 * same text as the API's endpoint, so Prometheus scrapes workers like API
 * processes. Anything else answers 404.
 */
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { ServiceError } from '../../errors/catalogue.ts';
import { verifyAdminToken } from '../../http/auth.ts';
import type { Services } from '../../services.ts';
import { CONTENT_TYPE, renderMetrics } from './exposition.ts';

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

function refusal(error: ServiceError): [number, Record<string, string>, string] {
  return [error.status, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify(error.toBody())];
}

async function answer(
  services: Services,
  method: string | undefined,
  path: string,
  authorization: string | undefined,
): Promise<[number, Record<string, string>, string]> {
  if (method !== 'GET' || path !== '/metrics') {
    return refusal(
      new ServiceError('ROUTE_NOT_FOUND', `No endpoint ${method ?? ''} ${path} here: a worker's metrics listener serves GET /metrics only.`, {
        source: 'service',
      }),
    );
  }
  try {
    verifyAdminToken(authorization, services.adminTokenSha256);
  } catch (error) {
    if (error instanceof ServiceError) return refusal(error);
    throw error;
  }
  return [200, { 'content-type': CONTENT_TYPE }, await renderMetrics(services.pool)];
}

export async function startMetricsListener(services: Services, port: number, host: string): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    answer(services, request.method, path, request.headers.authorization).then(
      ([status, headers, body]) => {
        response.writeHead(status, headers).end(body);
      },
      (error: unknown) => {
        services.log.error({ err: error }, 'metrics scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n');
      },
    );
  });
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
