import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser } from '../../../http/session-auth.ts';
import { Nullable } from '../../../model/shared.ts';
import { setOrganizationSyncDefaults, SyncDefaultsSchema } from '../../../connections/sync-defaults.ts';

export const contract = defineContract({
  method: 'PUT',
  url: '/dashboard/api/sync-defaults',
  auth: 'session',
  tags: ['Dashboard'],
  summary:
    "Set the organisation's default sync configuration: connections without a syncConfig of their own follow it from their next sync ({} clears it).",
  description:
    'Entities are upper-case entity names (a platform that does not offer one does not read it); a connection created with ' +
    'syncConfig keeps its own. Data batching is set apart (PUT /admin/organizations/:id/data_batching).',
  body: SyncDefaultsSchema,
  success: { status: 200, schema: Type.Object({ sync_defaults: Nullable(SyncDefaultsSchema, "null: the service's defaults.") }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => ({
  sync_defaults: await setOrganizationSyncDefaults(request.server.services.pool, requireDashboardUser(request).organizationId, request.body),
}));
