/**
 * Minimal /versioned endpoints that exercise the edge machinery (auth,
 * versioning, rate limit, idempotency, validation) before any product endpoint
 * exists. Only tests register them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../src/http/contract.ts';

export interface ProbeCounter {
  executions: number;
}

export function probeEndpoints(counter: ProbeCounter): Endpoint[] {
  const whoami = defineEndpoint(
    defineContract({
      method: 'GET',
      url: '/_probe/whoami',
      auth: 'client',
      tags: ['Probe'],
      summary: 'probe',
      success: { status: 200, schema: Type.Object({ organization_id: Type.String(), environment: Type.String(), version: Type.String() }) },
      errors: ['INVALID_CREDENTIALS'],
    }),
    (request) =>
      Promise.resolve({
        organization_id: request.tenant?.organizationId ?? '',
        environment: request.tenant?.environment ?? '',
        version: request.apiVersion ?? '',
      }),
  );

  const create = defineEndpoint(
    defineContract({
      method: 'POST',
      url: '/_probe/things',
      auth: 'client',
      tags: ['Probe'],
      summary: 'probe',
      querystring: Type.Object({ delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000 })) }),
      body: Type.Object({ name: Type.String({ minLength: 1 }), amount: Type.Optional(Type.Number()) }, { additionalProperties: false }),
      success: { status: 201, schema: Type.Object({ execution: Type.Integer(), name: Type.String(), at: Type.String() }) },
      errors: ['VALIDATION_ERROR'],
    }),
    async (request) => {
      counter.executions += 1;
      const execution = counter.executions;
      await sleep(request.query.delay_ms ?? 50);
      return { execution, name: request.body.name, at: new Date().toISOString() };
    },
  );

  const patch = defineEndpoint(
    defineContract({
      method: 'PATCH',
      url: '/_probe/things',
      auth: 'client',
      tags: ['Probe'],
      summary: 'probe',
      body: Type.Object({ name: Type.String({ minLength: 1 }), amount: Type.Optional(Type.Number()) }, { additionalProperties: false }),
      success: { status: 200, schema: Type.Object({ execution: Type.Integer(), name: Type.String() }) },
      errors: ['VALIDATION_ERROR'],
    }),
    (request) => {
      counter.executions += 1;
      return Promise.resolve({ execution: counter.executions, name: request.body.name });
    },
  );

  return [whoami, create, patch];
}
