import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { MAX_REDIRECT_URLS, REDIRECT_URL_MAX_LENGTH, setRedirectUrls } from '../../../connections/redirect-urls.ts';
import { EnvironmentSchema, OrganizationIdParams } from '../organizations/schemas.ts';
import { RedirectUrlsSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'PUT',
  url: '/admin/organizations/:id/redirect_urls',
  auth: 'admin',
  dashboard: { role: 'developer' },
  tags: ['Admin'],
  summary: 'Set the redirect URLs the link flow may send end users to, for one environment (replaces the list).',
  description:
    'A redirect_url (given at connection creation or in the link address) is used only if its scheme, host, port and path ' +
    "equal an entry's; its query string is free and kept. Entries are absolute http(s) URLs without credentials, query or #fragment; " +
    'production entries must use https unless the host is localhost, 127.0.0.1 or [::1]. An empty list allows no redirect. ' +
    'Without a list, sandbox accepts the redirect_url given at connection creation and production accepts none.',
  params: OrganizationIdParams,
  body: Type.Object(
    {
      environment: EnvironmentSchema,
      urls: Type.Array(Type.String({ minLength: 1, maxLength: REDIRECT_URL_MAX_LENGTH }), {
        maxItems: MAX_REDIRECT_URLS,
        description: 'e.g. ["https://app.example.com/connected"]',
      }),
    },
    { additionalProperties: false },
  ),
  success: { status: 200, schema: Type.Object({ redirect_urls: RedirectUrlsSchema }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const { environment, urls } = request.body;
  return {
    redirect_urls: await setRedirectUrls(request.server.services.pool, { organizationId: request.params.id, environment, urls, location: 'body' }),
  };
});
