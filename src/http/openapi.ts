import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { API_VERSIONS } from './versioning.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Operations: 'Liveness and readiness probes.',
  Admin: "The operator's API (ADMIN_TOKEN): organisations, their credentials, webhooks, OAuth apps, and /metrics.",
  Dashboard: 'What the dashboard pages call, with a dashboard session.',
  'Platform webhooks': 'Where the platforms send their own webhooks, verified by their signatures.',
  Attachments: 'Files served through signed, expiring URLs.',
  Connections: 'Create, find, sync and remove connections, and exchange public tokens.',
  Events: 'The events of the organisation, as its webhooks deliver them.',
  Jobs: 'Asynchronous writes and syncs: their status and answer.',
  reports: 'Accounting reports computed from the stored copy (aging summaries).',
  attachments: 'Files attached to bills, invoices, expenses and journal entries: list, fetch, upload and download.',
};

/** Groups of tags, by the area of the URL their operations live under (Redoc's x-tagGroups). */
const TAG_GROUPS: readonly { name: string; prefixes: readonly string[] }[] = [
  { name: 'Connections', prefixes: ['/versioned/connections', '/versioned/item', '/versioned/events', '/versioned/jobs'] },
  { name: 'Accounting', prefixes: ['/versioned/accounting'] },
  { name: 'Commerce and payments', prefixes: ['/versioned/commerce', '/versioned/payouts', '/versioned/store'] },
  { name: 'HRIS', prefixes: ['/versioned/hris'] },
  { name: 'Operator', prefixes: ['/admin', '/metrics', '/healthz', '/readyz', '/files', '/platform-webhooks'] },
  { name: 'Dashboard', prefixes: ['/dashboard'] },
];

function tagDescription(tag: string): string {
  return (
    TAG_DESCRIPTIONS[tag] ??
    `The ${tag} of a connection: lists and fetches read the stored copy; creates, updates and deletes, where the platform supports them, go through to the platform.`
  );
}

/** Every tag the operations use, in order of first use, described, and grouped by the area of their URLs. */
function describeTags(paths: unknown): { tags: { name: string; description: string }[]; 'x-tagGroups': { name: string; tags: string[] }[] } {
  const groups = new Map(TAG_GROUPS.map((group) => [group.name, new Set<string>()]));
  const tags = new Set<string>();
  for (const [path, item] of Object.entries(isObject(paths) ? paths : {})) {
    if (!isObject(item)) continue;
    const group = TAG_GROUPS.find((g) => g.prefixes.some((prefix) => path.startsWith(prefix)));
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || !Array.isArray(operation.tags)) continue;
      for (const tag of operation.tags) {
        if (typeof tag !== 'string') continue;
        tags.add(tag);
        if (group !== undefined) groups.get(group.name)?.add(tag);
      }
    }
  }
  return {
    tags: [...tags].map((name) => ({ name, description: tagDescription(name) })),
    'x-tagGroups': [...groups].filter(([, members]) => members.size > 0).map(([name, members]) => ({ name, tags: [...members] })),
  };
}

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
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      return { ...documentObject.openapiObject, ...describeTags(documentObject.openapiObject.paths) };
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
