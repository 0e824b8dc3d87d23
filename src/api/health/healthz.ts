import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/healthz',
  auth: 'none',
  tags: ['Operations'],
  summary: 'Liveness: the process answers.',
  success: { status: 200, schema: Type.Object({ status: Type.Literal('ok') }) },
  errors: [],
});

export default defineEndpoint(contract, () => Promise.resolve({ status: 'ok' as const }));
