import { Type } from 'typebox';
import { oauthAppExists } from '../../sql/oauth-app-exists.ts';
import { simulatorFor } from '../../platforms/simulators.ts';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { createConnection, refreshCredentials } from '../../connections/connections.ts';
import { CREDENTIAL_FIELDS } from '../../platforms/registry.ts';
import { getConnector, listConnectors } from '../../platforms/index.ts';
import { PATTERN_HINT } from '../../http/validation.ts';
import { connectorContext } from '../../platforms/context.ts';
import { PlatformError } from '../../platforms/errors.ts';
import {
  authorizationInputFields,
  checkAuthorizationInput,
  credentialFieldNotTaken,
  invalidInputMessage,
} from '../../platforms/authorization-input.ts';
import type { Credentials } from '../../platforms/connector.ts';
import { ENTITY_NAMES, SyncConfigSchema, validateSyncConfig, objectTypeToEntity } from '../../connections/sync-config.ts';
import { ensureInitialSync } from '../../sync/requests.ts';
import { StringEnum } from '../../model/shared.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import { connectionView } from './schemas.ts';
import { assertCreationRedirect } from '../../connections/redirect-urls.ts';
import { requireTenant } from '../../http/auth.ts';

export const MARKETPLACES = [
  'UNITED_STATES',
  'CANADA',
  'MEXICO',
  'BRAZIL',
  'BELGIUM',
  'UNITED_KINGDOM',
  'GERMANY',
  'FRANCE',
  'SPAIN',
  'ITALY',
  'NETHERLANDS',
  'SWEDEN',
  'POLAND',
  'SAUDI_ARABIA',
  'EGYPT',
  'TURKEY',
  'UNITED_ARAB_EMIRATES',
  'INDIA',
  'JAPAN',
  'AUSTRALIA',
  'SINGAPORE',
] as const;

const credentialProperties = Object.fromEntries(CREDENTIAL_FIELDS.map((field) => [field, Type.Optional(Type.String({ maxLength: 4096 }))]));

export const contract = defineContract({
  method: 'POST',
  url: '/connections/create',
  auth: 'client',
  tags: ['Connections'],
  summary:
    'Create a connection: empty body (the end user picks the platform in the link flow), platform plus credentials, or platform plus redirect_url for an OAuth consent address.',
  body: Type.Object(
    {
      platform: Type.Optional(
        Type.String({
          pattern: '^[A-Z0-9_]{2,40}$',
          [PATTERN_HINT]: 'must be a platform id in upper case, e.g. SANDBOX or XERO',
          description: 'Upper-case platform identifier, e.g. SANDBOX.',
        }),
      ),
      name: Type.Optional(Type.String({ maxLength: 200, description: 'Display label.' })),
      scope: Type.Optional(Type.String({ maxLength: 1000 })),
      syncConfig: Type.Optional(SyncConfigSchema),
      marketplace_seller_marketplace: Type.Optional(StringEnum(MARKETPLACES, 'Marketplace of a marketplace connection created without credentials.')),
      redirect_url: Type.Optional(
        Type.String({
          format: 'uri',
          maxLength: 2000,
          description:
            "Where the end user lands after the flow, with public_token appended. Must be on the environment's allowed redirect URLs (PUT /admin/organizations/:id/redirect_urls); without a list, sandbox accepts any http(s) URL here and production none.",
        }),
      ),
      ...credentialProperties,
    },
    { additionalProperties: false },
  ),
  success: {
    status: 200,
    schema: Type.Object({
      connection: Type.Object({
        id: Type.String({ format: 'uuid' }),
        access_token: Type.String(),
        link_url: Type.String(),
        name: Type.Union([Type.String(), Type.Null()]),
        platform_auth_url: Type.Optional(
          Type.String({ description: 'OAuth platforms created with redirect_url or a marketplace: send the end user here.' }),
        ),
      }),
    }),
  },
  errors: [
    'VALIDATION_ERROR',
    'MALFORMED_JSON',
    'INVALID_CREDENTIALS',
    'RATE_LIMIT_EXCEEDED',
    'PLATFORM_BAD_REQUEST',
    'PLATFORM_UNAUTHORIZED',
    'PLATFORM_RATE_LIMITED',
    'PLATFORM_ERROR',
    'ENDFORM_NOT_AVAILABLE',
  ],
});

/** The platform ids this process offers (SANDBOX only while SANDBOX_ENABLED), for a message. */
function offeredPlatforms(): string {
  return listConnectors()
    .map((connector) => connector.id)
    .sort()
    .join(', ');
}

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher, config, jobs } = request.server.services;
  const tenant = requireTenant(request);
  const body = request.body;
  const credentials: Credentials = {};
  const fields: Record<string, unknown> = body;
  for (const field of CREDENTIAL_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string') credentials[field] = value;
  }
  const hasCredentials = Object.keys(credentials).length > 0;
  const platform = body.platform ?? null;
  const connector = platform === null ? undefined : getConnector(platform);
  if (platform !== null && connector === undefined) {
    throw new ServiceError('VALIDATION_ERROR', `\`platform\` "${platform}" is not offered by this service; it offers ${offeredPlatforms()}.`, {
      source: 'service',
      field: 'platform',
      location: 'body',
    });
  }
  if (platform === null && hasCredentials) {
    throw new ServiceError('VALIDATION_ERROR', 'Credential fields need `platform`: name the platform they belong to.', {
      source: 'service',
      field: 'platform',
      location: 'body',
    });
  }
  const marketplace = body.marketplace_seller_marketplace;
  if (marketplace !== undefined && connector?.marketplaces?.includes(marketplace) !== true) {
    const why =
      connector === undefined
        ? 'it needs `platform` naming a marketplace platform'
        : connector.marketplaces === undefined
          ? `${connector.id} is not a marketplace platform`
          : `${connector.id} does not sell on ${marketplace}`;
    throw new ServiceError(
      'VALIDATION_ERROR',
      `\`marketplace_seller_marketplace\` cannot be used here: ${why}. No marketplace platform is offered by this service yet (docs/platforms.md); leave the field out.`,
      { source: 'service', field: 'marketplace_seller_marketplace', location: 'body' },
    );
  }
  if (body.syncConfig !== undefined) {
    const offered = connector === undefined ? undefined : Object.keys(connector.objects).map((t) => objectTypeToEntity(t as UnifiedObjectType));
    validateSyncConfig(body.syncConfig, offered ?? ENTITY_NAMES);
  }
  // Checked before anything is created: the link flow would refuse it later (src/connections/redirect-urls.ts).
  if (body.redirect_url !== undefined) await assertCreationRedirect(pool, tenant, body.redirect_url);
  // A platform_auth_url is only worth handing out if the platform's sign-in form can be reached (docs/reference.md).
  const wantsAuthUrl = body.redirect_url !== undefined || body.marketplace_seller_marketplace !== undefined;
  // In the sandbox environment the platform's simulator signs in when the organisation has no app (docs/simulators.md).
  const simulated = tenant.environment === 'sandbox' && connector !== undefined && simulatorFor(connector.id) !== undefined;
  if (
    connector?.auth.type === 'oauth2' &&
    wantsAuthUrl &&
    !simulated &&
    !(await oauthAppExists(pool, tenant.organizationId, tenant.environment, connector.id))
  ) {
    throw new ServiceError(
      'ENDFORM_NOT_AVAILABLE',
      `${connector.name}'s sign-in form cannot be offered: this organisation has no ${connector.id} OAuth app for the ${tenant.environment} environment. ` +
        `The operator registers one (PUT /admin/organizations/:id/oauth_apps/${connector.id}, or npx ledgerport oauth-app set); until then nothing was created.`,
      { source: 'service', field: 'platform', location: 'body' },
    );
  }

  // OAuth platforms that ask for input before consent (a shop domain) take it here under the spec's field names; it
  // is checked as the link form checks it and kept, sealed, for the consent step (src/link/authorization-input.ts).
  // Every platform alike: a credential field it does not take is refused, never stored unused (SHOPIFY's api_key, SANDBOX's).
  const notTaken = connector === undefined ? null : credentialFieldNotTaken(connector, Object.keys(credentials));
  if (notTaken !== null) {
    throw new ServiceError('VALIDATION_ERROR', notTaken.message, { source: 'service', field: notTaken.field, location: 'body' });
  }
  const inputFields = connector === undefined ? [] : authorizationInputFields(connector);
  if (inputFields.length > 0 && hasCredentials) {
    const checked = checkAuthorizationInput(inputFields, credentials);
    if (!checked.ok) {
      throw new ServiceError('VALIDATION_ERROR', invalidInputMessage(checked.invalid), {
        source: 'service',
        field: checked.invalid[0]?.field,
        location: 'body',
      });
    }
    Object.assign(credentials, checked.input);
  }

  let identity = null;
  if (connector !== undefined && hasCredentials && inputFields.length === 0) {
    const fields = connector.auth.type === 'credentials' ? connector.auth.fields : connector.auth.credentials;
    if (fields === undefined) {
      throw new ServiceError(
        'VALIDATION_ERROR',
        `${connector.id} connects through OAuth: create the connection without credentials and send the end user to link_url (or pass redirect_url for platform_auth_url).`,
        { source: 'service', field: 'platform', location: 'body' },
      );
    }
    const missing = fields.filter((f) => f.required && credentials[f.field] === undefined).map((f) => f.field);
    if (missing.length > 0) {
      throw new ServiceError('VALIDATION_ERROR', `${connector.id} needs ${missing.join(', ')} in the request body.`, {
        source: 'service',
        field: missing[0],
        location: 'body',
      });
    }
    try {
      identity = await connector.identify(
        connectorContext({ connector, connectionId: 'unlinked', credentials, tokens: null, environment: tenant.environment, db: pool }),
      );
    } catch (error) {
      if (error instanceof PlatformError) throw error.toServiceError();
      throw error;
    }
  }

  const result = await createConnection(pool, cipher, tenant, {
    platform,
    name: body.name ?? null,
    credentials: hasCredentials ? credentials : null,
    identity,
    syncConfig: body.syncConfig ?? null,
    scope: body.scope ?? null,
    marketplace: body.marketplace_seller_marketplace ?? null,
    redirectUrl: body.redirect_url ?? null,
  });
  const connection =
    !result.created && identity !== null ? await refreshCredentials(pool, cipher, result.connection, credentials) : result.connection;
  if (identity !== null) await ensureInitialSync(pool, jobs, connection.id, 'api', request.id);
  const view = connectionView(cipher, config.publicUrl, connection);
  // OAuth platforms: an address that starts the flow directly at the platform's consent step.
  const authUrl = connector?.auth.type === 'oauth2' && wantsAuthUrl ? `${view.link_url}/${connector.id}` : null;
  return {
    connection: {
      id: view.id,
      access_token: view.access_token,
      link_url: view.link_url,
      name: view.name,
      ...(authUrl !== null ? { platform_auth_url: authUrl } : {}),
    },
  };
});
