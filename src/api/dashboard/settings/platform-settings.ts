import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser, sessionEnvironment } from '../../../http/session-auth.ts';
import { Nullable } from '../../../model/shared.ts';
import { getOrganization, organizationNotFound } from '../../../tenants/organizations.ts';
import { organizationSyncDefaults, SyncDefaultsSchema, syncConfigOverrides, MAX_LISTED_OVERRIDES } from '../../../connections/sync-defaults.ts';
import { DataBatchingSchema, SyncConfigSchema } from '../../../connections/sync-config.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/platform-settings',
  auth: 'session',
  tags: ['Dashboard'],
  summary:
    "The session's organisation's products (set by the operator), data batching, default sync configuration, and the connections of the session's environment that override it.",
  success: {
    status: 200,
    schema: Type.Object({
      products: Type.Array(Type.String(), { description: 'Enabled by the operator; read-only here.' }),
      data_batching: Nullable(DataBatchingSchema, 'null: off.'),
      sync_defaults: Nullable(SyncDefaultsSchema, "null: the service's defaults (all entities, 24 months, hourly)."),
      overrides: Type.Array(
        Type.Object({
          connection_id: Type.String({ format: 'uuid' }),
          name: Nullable(Type.String()),
          platform: Nullable(Type.String()),
          status: Type.String(),
          sync_config: SyncConfigSchema,
        }),
        { description: `Connections with a syncConfig of their own, newest first (at most ${MAX_LISTED_OVERRIDES}).` },
      ),
    }),
  },
  errors: [],
});

export default defineEndpoint(contract, async (request) => {
  const { pool } = request.server.services;
  const user = requireDashboardUser(request);
  const organization = await getOrganization(pool, user.organizationId);
  if (organization === null) throw organizationNotFound(user.organizationId);
  return {
    products: organization.products,
    data_batching: organization.data_batching,
    sync_defaults: await organizationSyncDefaults(pool, user.organizationId),
    overrides: await syncConfigOverrides(pool, user.organizationId, sessionEnvironment(request)),
  };
});
