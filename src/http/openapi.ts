import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { API_VERSIONS } from './versioning.ts';

export function openApiOptions(publicUrl: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ledgerport API',
        version: API_VERSIONS[0],
        description:
          'Unified financial data API. Every /versioned request needs HTTP Basic client credentials and the ' +
          `X-Service-Version header (${API_VERSIONS.join(', ')}). Connection-scoped endpoints also take access_token.`,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          basicAuth: { type: 'http', scheme: 'basic', description: 'client_id:client_secret of one environment' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the operator' },
          dashboardSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'lp_session',
            description: 'A dashboard session (docs/dashboard.md); state-changing requests also send X-CSRF-Token',
          },
        },
      },
    },
    // The version header is checked before validation; document it on every /versioned route.
    transform: ({ schema, url, route }) => {
      if (!url.startsWith('/versioned')) return { schema, url };
      const headers = {
        type: 'object',
        required: ['x-service-version'],
        properties: {
          'x-service-version': { type: 'string', enum: [...API_VERSIONS], description: 'API version of the request.' },
          ...(['POST', 'PATCH', 'DELETE'].includes(String(route.method))
            ? { 'idempotency-key': { type: 'string', maxLength: 255, description: 'Makes retries safe: the first answer is replayed for 24 h.' } }
            : {}),
        },
      };
      return { schema: { ...schema, headers }, url };
    },
  };
}
