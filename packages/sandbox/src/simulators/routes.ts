/**
 * The simulators over HTTP, on the service itself: /simulators/<platform>/<the platform's own path>. The browser comes
 * here for a simulated platform's consent page; a developer may call a simulated API here with a token it issued.
 * Bodies are taken raw (the kit parses them as the platform would: JSON, a form, bytes).
 */
import type { FastifyInstance } from 'fastify';
import type { SimulatorHost } from './host.ts';
import { parseBody } from './wire.ts';

export const SIMULATORS_PATH = '/simulators';

/** Where a platform's simulator is mounted, e.g. /simulators/xero. */
export const simulatorPrefix = (platform: string): string => `${SIMULATORS_PATH}/${platform.toLowerCase()}`;

function headerRecord(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

export function registerSimulatorRoutes(app: FastifyInstance, hosts: readonly SimulatorHost[]): void {
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 10 * 1024 * 1024 }, (_request, body, next) => {
      next(null, body);
    });
    for (const host of hosts) {
      const prefix = simulatorPrefix(host.simulator.platform);
      scope.route({
        method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        url: `${prefix}/*`,
        schema: { hide: true },
        handler: async (request, reply) => {
          const url = new URL(request.url, 'http://simulator.invalid');
          const headers = headerRecord(request.headers);
          const bytes = Buffer.isBuffer(request.body) ? request.body : null;
          const answer = await host.answer({
            method: request.method.toUpperCase(),
            path: url.pathname.slice(prefix.length),
            query: url.searchParams,
            headers,
            body: parseBody(headers['content-type'], bytes),
          });
          // Served from the service's own origin: nothing a simulated platform answers (a file's bytes with the type it
          // was uploaded with) may run as a page of it.
          void reply
            .code(answer.status)
            .headers({ 'x-content-type-options': 'nosniff', 'content-security-policy': "sandbox; default-src 'none'" })
            .headers(answer.headers ?? {});
          if (answer.body === undefined) return reply.send();
          if (typeof answer.body === 'string' || answer.body instanceof Uint8Array) return reply.send(answer.body);
          return reply.type('application/json; charset=utf-8').send(JSON.stringify(answer.body));
        },
      });
    }
    done();
  });
}
