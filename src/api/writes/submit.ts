/**
 * What every write endpoint does after its own checks: make sure the
 * connection can take writes, run the checks every write shares
 * (src/writes/check-write.ts), accept the job, and answer — with the result
 * when the platform answered within the wait (prefer_sync), otherwise 202 with
 * async_response. Every accepted write carries X-Service-Job-Id.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { assertLinked } from '../../connections/unlinked.ts';
import { assertUsable } from '../../connections/readiness.ts';
import { assertProductAllowed } from '../../tenants/products.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import { ERROR_CATALOGUE, ServiceError, type ErrorCode, type ErrorMetadata } from '../../errors/catalogue.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../../model/object-types.ts';
import type { ConnectorActions } from '../../platforms/connector.ts';
import { getConnector } from '../../platforms/index.ts';
import { loadWriteJob, type JobFile, type WriteJob } from '../../sql/write-jobs.ts';
import { acceptWrite } from '../../writes/accept.ts';
import type { StoredRecord } from '../../writes/check-input.ts';
import { checkWrite } from '../../writes/check-write.ts';
import { isFinished, type WriteOperation } from '../../sql/write-job-states.ts';
import { asyncResponse } from '../../writes/job-view.ts';
import type { ResponseMode } from '../../writes/input-schemas.ts';
import type { ObjectWrite } from '../../writes/writable.ts';
import type { NestedKind, NestedOperation } from '../../writes/nested.ts';
import { requireTenant } from '../../http/auth.ts';

export const JOB_ID_HEADER = 'X-Service-Job-Id';

export const WRITE_ERRORS = [
  'MISSING_ACCESS_TOKEN',
  'INVALID_CREDENTIALS',
  'VALIDATION_ERROR',
  'MALFORMED_JSON',
  'PRODUCT_NOT_ALLOWED',
  'PRODUCT_NOT_READY',
  'NEEDS_UPDATE',
  'NO_CREDENTIALS',
  'PENDING',
  'LINK_ERROR',
  'CONNECTION_DISABLED',
  'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
  'RATE_LIMIT_EXCEEDED',
  'IDEMPOTENCY_KEY_MISMATCH',
  'IDEMPOTENCY_KEY_IN_USE',
  'DUPLICATE_VALUE_CONFLICT',
  'PLATFORM_BAD_REQUEST',
  'PLATFORM_BILLING_ISSUE',
  'PLATFORM_UNAUTHORIZED',
  'PLATFORM_RATE_LIMITED',
  'PLATFORM_ERROR',
  'INTERNAL_ERROR',
] as const satisfies readonly ErrorCode[];

export const AccessTokenQuery = Type.Object({
  access_token: Type.Optional(Type.String({ description: 'The connection access_token (required).' })),
});

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 300, description: 'Service id.' }) });

type Capability = { op: ObjectWrite } | { action: keyof ConnectorActions } | { nested: NestedKind; nestedOp: NestedOperation };

function supports(connection: ConnectionRecord, type: UnifiedObjectType, capability: Capability): boolean {
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  if (connector === undefined) return false;
  if ('op' in capability) return connector.objects[type]?.capabilities[capability.op] === true;
  if ('nested' in capability) return connector.objects[type]?.handler.nested?.[capability.nested.field]?.[capability.nestedOp] !== undefined;
  return connector.actions?.[capability.action] !== undefined;
}

const VERBING: Readonly<Record<ObjectWrite, string>> = { create: 'Creating', update: 'Updating', delete: 'Deleting' };

/** The connection of the request, ready for writes of this kind on its platform. */
export async function writableConnection(
  request: FastifyRequest,
  accessToken: string | undefined,
  type: UnifiedObjectType,
  capability: Capability,
): Promise<ConnectionRecord> {
  const tenant = requireTenant(request);
  assertProductAllowed(tenant, type);
  const connection = await connectionForAccessToken(request.server.services.pool, tenant, accessToken);
  await assertLinked(request.server.services.pool, connection);
  assertUsable(connection, ', then write again');
  if (connection.platform === null || connection.readyAt === null) {
    throw new ServiceError(
      'PRODUCT_NOT_READY',
      'Writes need the initial sync to have finished (ids are checked against the stored copy); wait for the INITIAL_UPDATE webhook.',
      { source: 'service' },
    );
  }
  if (!supports(connection, type, capability)) {
    const what =
      'op' in capability
        ? `${VERBING[capability.op]} ${OBJECT_TYPES[type].plural.replaceAll('_', ' ')}`
        : 'nested' in capability
          ? `${VERBING[capability.nestedOp]} ${OBJECT_TYPES[type].singular.replaceAll('_', ' ')} ${capability.nested.field}`
          : capability.action;
    throw new ServiceError('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM', `${what} is not supported on ${connection.platform}; see docs/platforms.md.`, {
      source: 'service',
    });
  }
  return connection;
}

export interface Submission {
  connection: ConnectionRecord;
  objectType: UnifiedObjectType;
  operation: WriteOperation;
  /** The stored record the write changes (PATCH, DELETE, actions); null for a create. */
  target: StoredRecord | null;
  /** What GET /jobs/:id shows as the request body (the request body itself, except for uploads): what the worker sends on. */
  requestBody: unknown;
  mode: ResponseMode | undefined;
  file?: JobFile;
}

/** A stored error body back into the error it was, so a failed job answers like a failed request. */
function errorFromBody(body: unknown): ServiceError {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code =
    typeof record.error_code === 'string' && Object.hasOwn(ERROR_CATALOGUE, record.error_code) ? (record.error_code as ErrorCode) : 'INTERNAL_ERROR';
  const message = typeof record.error_message === 'string' ? record.error_message : 'The write failed.';
  const metadata = typeof record.error_metadata === 'object' && record.error_metadata !== null ? (record.error_metadata as ErrorMetadata) : undefined;
  return new ServiceError(code, message, metadata);
}

const isJson = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export async function submitWrite(request: FastifyRequest, reply: FastifyReply, submission: Submission): Promise<unknown> {
  const { services } = request.server;
  const { connection } = submission;
  const bodySchema: unknown = request.routeOptions.config.contract?.body;
  await checkWrite(services.pool, {
    connectionId: connection.id,
    objectType: submission.objectType,
    operation: submission.operation,
    body: submission.requestBody,
    bodySchema: isJson(bodySchema) ? bodySchema : undefined,
    target: submission.target,
  });
  const { job } = await acceptWrite(
    services.pool,
    services.jobs,
    {
      tenant: requireTenant(request),
      connectionId: connection.id,
      objectType: submission.objectType,
      operation: submission.operation,
      targetId: submission.target?.id ?? null,
      idempotencyKey: request.idempotency?.scope.key ?? null,
      requestId: request.id,
      request: { method: request.method, path: request.url.split('?')[0] ?? request.url, body: submission.requestBody },
    },
    submission.file ?? null,
  );
  void reply.header(JOB_ID_HEADER, job.id);
  if (submission.mode === 'async') {
    void reply.code(202);
    return asyncResponse(job, services.config.publicUrl);
  }
  const finished = await waitFor(request, job);
  if (finished.status === 'completed' && finished.response !== null) {
    void reply.code(finished.response.status_code);
    return finished.response.body;
  }
  if (finished.status === 'failed') throw errorFromBody(finished.response?.body);
  void reply.code(202);
  return asyncResponse(finished, services.config.publicUrl);
}

async function waitFor(request: FastifyRequest, job: WriteJob): Promise<WriteJob> {
  const { services } = request.server;
  let latest = job;
  await services.jobWaiter.wait(job.id, services.writeSyncWaitMs, async () => {
    latest = (await loadWriteJob(services.pool, job.id)) ?? latest;
    return isFinished(latest.status);
  });
  return latest;
}
