import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { clientAuthCache } from '../../../http/auth-cache.ts';
import { setDisabledEndpoints } from '../../../tenants/endpoints.ts';
import { OrganizationIdParams } from './schemas.ts';

export const contract = defineContract({
  method: 'PUT',
  url: '/admin/organizations/:id/disabled_endpoints',
  auth: 'admin',
  tags: ['Admin'],
  summary: 'Set the endpoints an organisation may not use (replaces the list).',
  description:
    'Each entry is a method and a route of the /versioned API as the OpenAPI document writes it, such as "POST /accounting/bills". ' +
    'Requests to them answer ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION (404). An empty list turns everything back on. ' +
    'Other API processes apply a change within AUTH_CACHE_SECONDS.',
  params: OrganizationIdParams,
  body: Type.Object(
    {
      disabled_endpoints: Type.Array(Type.String({ maxLength: 300 }), {
        maxItems: 500,
        description: '"METHOD /route" entries, such as "POST /accounting/bills".',
      }),
    },
    { additionalProperties: false },
  ),
  success: { status: 200, schema: Type.Object({ disabled_endpoints: Type.Array(Type.String()) }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const server = request.server;
  const isEndpoint = (method: string, route: string): boolean =>
    !route.startsWith('/versioned') && server.hasRoute({ method, url: `/versioned${route}` });
  const disabled = await setDisabledEndpoints(
    server.services.pool,
    request.params.id,
    request.body.disabled_endpoints,
    'disabled_endpoints',
    isEndpoint,
  );
  // This process forgets the organisation's remembered credentials (and their settings) at once; others within AUTH_CACHE_SECONDS.
  clientAuthCache.forgetOrganization(request.params.id);
  return { disabled_endpoints: disabled };
});
