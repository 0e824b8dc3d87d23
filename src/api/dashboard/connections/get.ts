import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ConnectionIdParams, ConnectionSchema, connectionView } from '../../connections/schemas.ts';
import { ownConnection } from './shared.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/connections/:id',
  auth: 'session',
  tags: ['Dashboard'],
  summary:
    "One connection of the session's organisation and environment by id, as GET /connections lists it (with its access_token, which the dashboard's pages use server-side to act through the API and never render).",
  params: ConnectionIdParams,
  success: { status: 200, schema: Type.Object({ connection: ConnectionSchema }) },
  errors: ['VALIDATION_ERROR', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const { cipher, config } = request.server.services;
  const connection = await ownConnection(request, request.params.id);
  return { connection: connectionView(cipher, config.publicUrl, connection) };
});
