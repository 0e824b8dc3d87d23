import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { OAUTH_APP_FIELD_MAX_LENGTH, OAUTH_SCOPE_MAX_LENGTH, REDIRECT_URI_MAX_LENGTH, setOAuthApp } from '../../../connections/oauth-apps.ts';
import { EnvironmentSchema } from '../organizations/schemas.ts';
import { OAuthAppParams, OAuthAppSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'PUT',
  url: '/admin/organizations/:id/oauth_apps/:platform',
  auth: 'admin',
  dashboard: { role: 'admin' },
  tags: ['Admin'],
  summary: "Set the organisation's OAuth app of one platform and environment; the link flow uses it for consent and token exchange.",
  description:
    'The platform must sign in with OAuth (a 400 lists those that do). The client secret is stored encrypted and never returned. ' +
    'redirect_uri is an absolute URL without credentials or #fragment, https unless the host is localhost or 127.0.0.1. ' +
    'Setting it again replaces the app.',
  params: OAuthAppParams,
  body: Type.Object(
    {
      environment: EnvironmentSchema,
      client_id: Type.String({ minLength: 1, maxLength: OAUTH_APP_FIELD_MAX_LENGTH }),
      client_secret: Type.String({ minLength: 1, maxLength: OAUTH_APP_FIELD_MAX_LENGTH, description: 'Stored encrypted; never returned.' }),
      redirect_uri: Type.String({
        minLength: 1,
        maxLength: REDIRECT_URI_MAX_LENGTH,
        description: 'e.g. https://api.example.com/link/oauth/callback',
      }),
      scope: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: OAUTH_SCOPE_MAX_LENGTH,
          description:
            "Consent scopes the app asks for, space-separated (OAuth 2.0's scope). Left out: the connector's list. Xero apps created since March 2026 may ask for granular scopes only, and for those enabled for the app in its portal.",
        }),
      ),
      webhook_key: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: OAUTH_APP_FIELD_MAX_LENGTH,
          description:
            "The key the platform signs its webhooks with (Xero: the app's webhook key; QuickBooks: the verifier token). With it, " +
            'POST /platform-webhooks/{platform}/{organization id}/{environment} receives them (docs/sync.md, "Platform webhooks"). Stored encrypted; never returned.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  success: { status: 200, schema: Type.Object({ oauth_app: OAuthAppSchema }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher } = request.server.services;
  const { environment, client_id: clientId, client_secret: clientSecret, redirect_uri: redirectUri, webhook_key: webhookKey, scope } = request.body;
  return {
    oauth_app: await setOAuthApp(pool, cipher, {
      organizationId: request.params.id,
      platform: request.params.platform,
      environment,
      clientId,
      clientSecret,
      redirectUri,
      ...(webhookKey === undefined ? {} : { webhookKey }),
      ...(scope === undefined ? {} : { scope }),
      location: 'body',
    }),
  };
});
