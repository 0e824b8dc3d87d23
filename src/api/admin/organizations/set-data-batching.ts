import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { organizationNotFound } from '../../../tenants/organizations.ts';
import { setOrganizationDataBatching } from '../../../sql/data-batching.ts';
import { checkDataBatchingMonths, DataBatchingSchema } from '../../../connections/sync-config.ts';
import { OrganizationIdParams } from './schemas.ts';

export const contract = defineContract({
  method: 'PUT',
  url: '/admin/organizations/:id/data_batching',
  auth: 'admin',
  dashboard: { role: 'developer' },
  tags: ['Admin'],
  summary: 'Set the data batching of the organisation\'s initial syncs ({"months": []} turns it off).',
  description:
    'With batching on, an initial sync reads the newest months first, batch by batch, and each finished batch fires ' +
    'HISTORICAL_UPDATE (spec: "only for organisations with data batching on"). A connection\'s syncConfig.data_batching overrides ' +
    'it ({"months": []} turns it off for that connection). Applies to initial syncs that start afterwards.',
  params: OrganizationIdParams,
  body: DataBatchingSchema,
  success: { status: 200, schema: Type.Object({ data_batching: Type.Union([DataBatchingSchema, Type.Null()]) }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const { months } = request.body;
  checkDataBatchingMonths(months, 'months');
  const batching = months.length === 0 ? null : { months };
  if (!(await setOrganizationDataBatching(request.server.services.pool, request.params.id, batching))) {
    throw organizationNotFound(request.params.id);
  }
  return { data_batching: batching };
});
