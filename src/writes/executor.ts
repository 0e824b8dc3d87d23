/**
 * Runs one write job: at most one process at a time (an advisory lock that
 * dies with its session), the platform call, then in one transaction the
 * write-through (stored copy and entity events with job_id), the job's result
 * and JOB_COMPLETED. Retries happen only when the platform's answer proves the
 * write did not happen (429, a request that never left), or after the platform
 * was re-read (an indeterminate create is looked up before it is sent again).
 */
import type { CoreServices } from '../core-services.ts';
import { withSavepoint, withTransaction, type PoolClient } from '../db/pool.ts';
import { ServiceError, type ErrorBody } from '../errors/catalogue.ts';
import { emitEvent, emitEvents } from '../events/emit.ts';
import { accessTokenOf } from '../connections/connections.ts';
import { markNeedsReauth } from '../connections/health.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { connectorContext, openCredentials } from '../platforms/context.ts';
import { jobTokens } from '../platforms/tokens.ts';
import type { Connector, WriteContext } from '../platforms/connector.ts';
import { PlatformError } from '../platforms/errors.ts';
import { getConnector } from '../platforms/index.ts';
import { findConnectionById } from '../sql/connections.ts';
import { fetchRecord } from '../sql/list-records.ts';
import { deleteByPlatformIds } from '../sql/records.ts';
import {
  claimWriteJob,
  completeWriteJob,
  failWriteJob,
  loadWriteJob,
  markIndeterminate,
  releaseForPause,
  releaseForRetry,
  type JobResponse,
  type WriteJob,
} from '../sql/write-jobs.ts';
import { presenterOf, served } from '../store/served.ts';
import { withConnectionPageLock } from '../sync/lock.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import { FOLLOW_UP_DELAY_SECONDS, requestTargetedSyncIn } from '../sync/requests.ts';
import { followUpTypes } from '../sync/follow-up-scope.ts';
import { deletedEvents, storePage, type PageContext } from '../sync/store-page.ts';
import { isFinished } from '../sql/write-job-states.ts';
import { jobView } from './job-view.ts';
import { jobObjectType, OPERATIONS, type Effect } from './operations.ts';
import { liveRecord } from './check-input.ts';
import { notifyJobDone } from '../sql/job-done.ts';
import { tryLockWriteJob, unlockWriteJob } from '../sql/write-job-lock.ts';
import { withIds } from '../log/logger.ts';
import { writeAttempts } from '../metrics/registry.ts';
import { QUEUES } from '../queue/names.ts';
import { notePause, pauseFor, secondsUntil, type PauseRequest } from '../connections/platform-pause.ts';
import { activePause, pausePlatformCalls } from '../sql/platform-pauses.ts';
import type { WriteJobData } from './accept.ts';
import { rateLimitedFailure, rateLimitVerdict, writeBackoffSeconds } from './rate-limit-budget.ts';
import { DailyBudgetSpent } from '../platforms/daily-budget.ts';
import { AnswerPending } from '../platforms/polled.ts';

/** Attempts before a job fails for good; pg-boss's own retry limit is higher, so this one decides. */
export const MAX_WRITE_ATTEMPTS = 8;

/**
 * `paused`: the platform paused the connection's calls; the job waits in the queue for the end of the pause.
 * `rate_limited`: the platform answered 429; the job's next queue entry (carrying when it was first rate-limited) is
 * scheduled on the queue's backoff, within its rate-limit budget (src/writes/rate-limit-budget.ts).
 */
export type ExecuteOutcome = 'done' | 'retry' | 'busy' | 'skipped' | 'paused' | 'rate_limited';

/** `rateLimitedSince`: when the platform first rate-limited this job, from its queue entry (null: not yet). */
export async function executeWriteJob(
  services: CoreServices,
  jobId: string,
  signal: AbortSignal,
  rateLimitedSince: Date | null = null,
): Promise<ExecuteOutcome> {
  const lockClient = await services.pool.connect();
  let broken = false;
  try {
    if (!(await tryLockWriteJob(lockClient, jobId))) return 'busy';
    try {
      return await attempt(services, lockClient, jobId, signal, rateLimitedSince);
    } finally {
      await unlockWriteJob(lockClient, jobId).catch(() => {
        broken = true;
      });
    }
  } finally {
    // A session whose unlock failed may still hold locks: it must not go back to the pool.
    lockClient.release(broken);
  }
}

async function attempt(
  services: CoreServices,
  lockClient: PoolClient,
  jobId: string,
  signal: AbortSignal,
  rateLimitedSince: Date | null,
): Promise<ExecuteOutcome> {
  const { pool } = services;
  const pending = await loadWriteJob(pool, jobId);
  if (pending === null || isFinished(pending.status)) return 'skipped';
  const connection = await findConnectionById(
    pool,
    { organizationId: pending.organizationId, environment: pending.environment },
    pending.connectionId,
  );
  if (connection === null) return 'skipped';
  const refusal = connectionRefusal(connection, pending);
  if (refusal !== null) {
    withIds(services.log, {
      organization_id: pending.organizationId,
      connection_id: pending.connectionId,
      job_id: pending.id,
      request_id: pending.requestId,
    }).info(
      { write: { operation: pending.operation, object_type: pending.objectType, error_code: refusal.code } },
      'write refused before reaching the platform',
    );
    await finishFailed(services, pending, connection, refusal);
    return 'done';
  }
  const pause = await activePause(pool, connection.id);
  if (pause !== null) {
    const pauseLog = withIds(services.log, {
      organization_id: pending.organizationId,
      connection_id: pending.connectionId,
      job_id: pending.id,
      request_id: pending.requestId,
    });
    const now = new Date();
    const verdict = rateLimitVerdict({
      since: rateLimitedSince,
      resumeAt: pause.until,
      now,
      budgetSeconds: services.config.writeRateLimitBudgetSeconds,
    });
    if (!verdict.retry) {
      const failure = rateLimitedFailure({ cause: { pauseReason: pause.reason }, platformResumeAt: pause.until, since: verdict.since, now });
      await finishFailed(services, pending, connection, failure);
      pauseLog.info({ paused_until: pause.until.toISOString() }, 'write answered 452: the platform pause ends beyond its rate-limit budget');
      return 'done';
    }
    await deferUntil(services, { jobId: pending.id, rateLimitedSince: verdict.since.toISOString() }, pause.until);
    pauseLog.info({ paused_until: pause.until.toISOString() }, 'write put off until the platform pause ends');
    return 'paused';
  }
  const job = await claimWriteJob(pool, jobId);
  if (job === null) return 'skipped';
  // A read job is finished when created (src/writes/read-job.ts); claiming refuses finished jobs.
  if (job.operation === 'read') return 'skipped';
  const log = withIds(services.log, {
    organization_id: job.organizationId,
    connection_id: job.connectionId,
    job_id: job.id,
    request_id: job.requestId,
    platform: connection.platform,
  });
  const started = Date.now();
  log.info({ write: { operation: job.operation, object_type: job.objectType, attempt: job.attempts } }, 'write started');
  const outcome = await applyWrite({ ...services, log }, lockClient, job, connection, signal, rateLimitedSince).catch((error: unknown) => {
    log.error({ err: error }, 'write attempt failed inside the service');
    throw error;
  });
  writeAttempts.inc({ platform: connection.platform ?? 'none', operation: job.operation, outcome });
  const finished = outcome === 'done' ? await loadWriteJob(pool, job.id) : null;
  log.info(
    {
      write: {
        operation: job.operation,
        object_type: job.objectType,
        attempt: job.attempts,
        outcome,
        status: finished?.status ?? job.status,
        status_code: finished?.response?.status_code ?? null,
      },
      duration_ms: Date.now() - started,
    },
    OUTCOME_MESSAGES[outcome] ?? 'write finished',
  );
  return outcome;
}

const OUTCOME_MESSAGES: Partial<Record<ExecuteOutcome, string>> = {
  retry: 'write will be retried',
  paused: 'write waits for the platform pause to end',
  rate_limited: 'write will be retried after the platform rate limit',
};

/** The claimed job against the platform; `services.log` carries the job's ids. */
async function applyWrite(
  services: CoreServices,
  lockClient: PoolClient,
  job: WriteJob,
  connection: ConnectionRecord,
  signal: AbortSignal,
  rateLimitedSince: Date | null,
): Promise<ExecuteOutcome> {
  const { pool, log } = services;
  const operation = job.operation;
  if (operation === 'read') return 'skipped';
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  if (connector === undefined) {
    await finishFailed(
      services,
      job,
      connection,
      new ServiceError('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM', `No connector for platform ${connection.platform ?? '(none)'}.`, { source: 'service' }),
    );
    return 'done';
  }
  let applied = false;
  try {
    // Refreshed first when they expire soon; a revoked grant fails the job like a 401 (needs_reauth).
    const ctx: WriteContext = {
      ...connectorContext({
        connector,
        connectionId: connection.id,
        db: pool,
        signal,
        log,
        credentials: openCredentials(services.cipher, connection.credentialsCiphertext),
        environment: connection.environment,
        simulated: connection.simulated,
        polledWaiter: { writeJobId: job.id },
        ...(await jobTokens(services, connection, connector, signal)),
      }),
      idempotencyKey: job.id,
    };
    await withConnectionPageLock(lockClient, connection.id, 'write', async () => {
      try {
        const type = jobObjectType(job);
        const target = job.targetId === null ? null : await liveRecord(pool, connection.id, type, job.targetId);
        const effect = await OPERATIONS[operation]({ job, type, connector, ctx, pool, target });
        applied = true;
        await finishApplied(services, job, connection, connector, ctx, effect);
      } catch (error) {
        // Said before the page lock goes: a sync waiting for it would otherwise read the record this write may have
        // made and announce it without the job's id (findUnresolvedWrite).
        if (applied || (error instanceof PlatformError && error.indeterminate)) await markIndeterminate(pool, job.id);
        throw error;
      }
    });
  } catch (error) {
    return handleFailure(services, job, connection, error, applied, rateLimitedSince);
  }
  return 'done';
}

function connectionRefusal(connection: ConnectionRecord, job: WriteJob): ServiceError | null {
  if (connection.status === 'disabled') {
    return new ServiceError(
      'CONNECTION_DISABLED',
      `The connection was disabled before job ${job.id} ran: ${connection.disableMessage ?? 'see GET /connections/status'}.`,
      { source: 'service' },
    );
  }
  if (connection.status === 'needs_reauth') {
    return new ServiceError(
      'NEEDS_UPDATE',
      `The platform stopped accepting this connection before job ${job.id} ran; send the end user to update_url, then write again.`,
      { source: 'service' },
    );
  }
  if (job.attempts >= MAX_WRITE_ATTEMPTS) {
    return new ServiceError(
      'PLATFORM_ERROR',
      `The platform failed ${job.attempts} attempts of this write${job.indeterminate ? '; one of them may have been applied, check the platform before writing again' : ''}.`,
      { source: 'service', indeterminate: job.indeterminate },
    );
  }
  return null;
}

function pageContext(
  services: CoreServices,
  job: WriteJob,
  connection: ConnectionRecord,
  connector: Connector,
  ctx: WriteContext,
  type: PageContext['objectType'],
): PageContext {
  const handler = connector.objects[type]?.handler;
  if (handler === undefined) throw new Error(`${connector.id} cannot map ${type}`);
  return {
    tenant: { organizationId: connection.organizationId, environment: connection.environment },
    connectionId: connection.id,
    accessToken: accessTokenOf(services.cipher, connection),
    cipher: services.cipher,
    objectType: type,
    handler,
    connectorContext: ctx,
    runId: job.id,
    rememberSeen: false,
    compareStored: true,
    jobId: job.id,
    announceChanges: true,
    mapping: { strict: services.config.strictMapping, platform: connector.id, log: services.log },
  };
}

/** The platform accepted: stored copy, entity events, the job's result and JOB_COMPLETED, all or nothing. */
async function finishApplied(
  services: CoreServices,
  job: WriteJob,
  connection: ConnectionRecord,
  connector: Connector,
  ctx: WriteContext,
  effect: Effect,
): Promise<void> {
  await withTransaction(services.pool, async (db) => {
    let stored: Record<string, unknown> | null = null;
    let resultId: string | null = null;
    if (effect.store !== undefined) {
      const { type, record } = effect.store;
      await storePage(db, pageContext(services, job, connection, connector, ctx, type), { records: [record], nextPageToken: null });
      const row = await fetchRecord(db, connection.id, type, 'platform', record.platformId, false);
      if (row !== null) {
        stored = served(type, row, false, presenterOf(services));
        resultId = row.id;
      }
    }
    if (effect.remove !== undefined) {
      const { type, platformId } = effect.remove;
      const gone = await deleteByPlatformIds(db, connection.id, type, [platformId], new Date().toISOString());
      await emitEvents(
        db,
        services.cipher,
        { organizationId: connection.organizationId, environment: connection.environment },
        deletedEvents(pageContext(services, job, connection, connector, ctx, type), gone),
      );
      resultId = gone[0]?.id ?? job.targetId;
    }
    await effect.keep?.(db);
    const answer = effect.answer(stored);
    const done = await completeWriteJob(db, job.id, { response: { status_code: answer.status, body: answer.body }, resultId });
    if (done === null) return;
    await requestFollowUpIn(db, services, connection.id, jobObjectType(job));
    await announce(db, services, connection, done);
  });
}

/**
 * Records the write touched on the side (a paid bill's amount_due) arrive with a follow-up sync, requested in the
 * transaction that completes the job: requested after it, a polled platform's session asking in between (QuickBooks
 * Desktop's Web Connector) was told nothing was left and the follow-up waited a whole session. Not being able to
 * request it leaves the write completed; the next scheduled sync reads the same records.
 */
async function requestFollowUpIn(db: PoolClient, services: CoreServices, connectionId: string, type: UnifiedObjectType): Promise<void> {
  await withSavepoint(db, 'follow_up', () =>
    requestTargetedSyncIn(db, services.jobs, connectionId, followUpTypes(type), { trigger: 'write', delaySeconds: FOLLOW_UP_DELAY_SECONDS }),
  ).catch((error: unknown) => {
    services.log.warn({ err: error }, 'follow-up sync could not be requested');
  });
}

/** JOB_COMPLETED of a finished job, and the wake-up of requests waiting for it. */
export async function announce(db: PoolClient, services: CoreServices, connection: ConnectionRecord, job: WriteJob): Promise<void> {
  await emitEvent(db, services.cipher, {
    tenant: { organizationId: connection.organizationId, environment: connection.environment },
    connectionId: connection.id,
    type: 'JOB',
    code: 'JOB_COMPLETED',
    payload: {
      type: 'JOB',
      code: 'JOB_COMPLETED',
      connection_id: connection.id,
      access_token: accessTokenOf(services.cipher, connection),
      job: jobView(job, services.config.publicUrl),
    },
  });
  await notifyJobDone(db, job.id);
}

function errorResponse(error: ServiceError): JobResponse {
  const body: ErrorBody = error.toBody();
  return { status_code: error.status, body };
}

async function finishFailed(services: CoreServices, job: WriteJob, connection: ConnectionRecord, error: ServiceError): Promise<void> {
  await withTransaction(services.pool, async (db) => {
    const done = await failWriteJob(db, job.id, errorResponse(error));
    if (done !== null) await announce(db, services, connection, done);
  });
}

/**
 * A platform that calls us has the write's request (src/platforms/polled.ts): the job waits, spending no attempt, until
 * the platform's answer wakes it (src/sync/polled-session.ts); this entry only looks again if that wake-up was lost.
 */
async function waitForPlatformCall(services: CoreServices, job: WriteJob, pending: AnswerPending): Promise<ExecuteOutcome> {
  await withTransaction(services.pool, async (db) => {
    await releaseForPause(db, job.id);
    const seconds = Math.max(1, Math.ceil(pending.retryAfterMs / 1000));
    await services.jobs.send(QUEUES.write, { jobId: job.id }, { startAfterSeconds: seconds, singletonKey: `polled:${job.id}` }, db);
  });
  services.log.info({ polled_request_id: pending.requestId }, 'write waits for the platform to call');
  return 'paused';
}

/** The job's next queue entry, at the end of a platform pause (one per job, whoever defers it). */
async function deferUntil(services: CoreServices, data: WriteJobData, until: Date, client?: PoolClient): Promise<void> {
  await services.jobs.send(QUEUES.write, { ...data }, { startAfterSeconds: secondsUntil(until), singletonKey: `paused:${data.jobId}` }, client);
}

/**
 * A 429 the HTTP client handed up (a write it may not retry itself, or its own attempts spent): the job's next entry
 * after the queue's backoff or the Retry-After, whichever is later, if that is within its rate-limit budget; 452 now if not.
 */
async function retryRateLimited(
  services: CoreServices,
  job: WriteJob,
  connection: ConnectionRecord,
  error: PlatformError,
  rateLimitedSince: Date | null,
): Promise<ExecuteOutcome> {
  const now = new Date();
  const platformResumeAt = error.retryAfterMs === null ? null : new Date(now.getTime() + error.retryAfterMs);
  const backoffEnd = now.getTime() + writeBackoffSeconds(job.attempts - 1) * 1000;
  const resumeAt = new Date(Math.max(platformResumeAt?.getTime() ?? 0, backoffEnd));
  const verdict = rateLimitVerdict({ since: rateLimitedSince, resumeAt, now, budgetSeconds: services.config.writeRateLimitBudgetSeconds });
  if (!verdict.retry) {
    await finishFailed(
      services,
      job,
      connection,
      rateLimitedFailure({ cause: { platformError: error }, platformResumeAt, since: verdict.since, now }),
    );
    return 'done';
  }
  const data: WriteJobData = { jobId: job.id, rateLimitedSince: verdict.since.toISOString() };
  await withTransaction(services.pool, async (db) => {
    await releaseForRetry(db, job.id, false);
    const options = { startAfterSeconds: secondsUntil(resumeAt, now.getTime()), singletonKey: `rate-limited:${job.id}:${job.attempts}` };
    await services.jobs.send(QUEUES.write, { ...data }, options, db);
  });
  return 'rate_limited';
}

/**
 * A long Retry-After or a spent daily budget pauses the connection's platform calls (syncs and other writes respect it);
 * this job waits for the pause's end if that is within its rate-limit budget, and answers 452 now if not.
 */
async function pauseOrGiveUp(
  services: CoreServices,
  job: WriteJob,
  connection: ConnectionRecord,
  error: unknown,
  request: PauseRequest,
  rateLimitedSince: Date | null,
): Promise<ExecuteOutcome> {
  const now = new Date();
  return withTransaction(services.pool, async (db) => {
    const pause = await pausePlatformCalls(db, connection.id, request.until, request.reason);
    services.log.warn({ paused_until: pause.until.toISOString(), pause_cause: request.cause }, notePause(request, connection.platform));
    const verdict = rateLimitVerdict({
      since: rateLimitedSince,
      resumeAt: pause.until,
      now,
      budgetSeconds: services.config.writeRateLimitBudgetSeconds,
    });
    if (verdict.retry) {
      // A 429 is not indeterminate: the platform refused before doing anything, so the job waits and tries again.
      await releaseForPause(db, job.id);
      await deferUntil(services, { jobId: job.id, rateLimitedSince: verdict.since.toISOString() }, pause.until, db);
      return 'paused';
    }
    const cause = error instanceof PlatformError && !(error instanceof DailyBudgetSpent) ? { platformError: error } : { pauseReason: pause.reason };
    const done = await failWriteJob(
      db,
      job.id,
      errorResponse(rateLimitedFailure({ cause, platformResumeAt: pause.until, since: verdict.since, now })),
    );
    if (done !== null) await announce(db, services, connection, done);
    return 'done';
  });
}

async function handleFailure(
  services: CoreServices,
  job: WriteJob,
  connection: ConnectionRecord,
  error: unknown,
  applied: boolean,
  rateLimitedSince: Date | null,
): Promise<ExecuteOutcome> {
  if (error instanceof AnswerPending && !applied) return waitForPlatformCall(services, job, error);
  services.log.warn({ err: error, applied }, 'write attempt failed');
  const pauseRequest = applied ? null : pauseFor(error);
  if (pauseRequest !== null) return pauseOrGiveUp(services, job, connection, error, pauseRequest, rateLimitedSince);
  if (error instanceof ServiceError) {
    await finishFailed(services, job, connection, error);
    return 'done';
  }
  if (error instanceof PlatformError) {
    if (error.kind === 'unauthorized' || error.kind === 'forbidden') {
      await withTransaction(services.pool, async (db) => {
        await markNeedsReauth(db, services.cipher, services.config.publicUrl, connection);
        const done = await failWriteJob(db, job.id, errorResponse(error.toServiceError()));
        if (done !== null) await announce(db, services, connection, done);
      });
      return 'done';
    }
    if (error.kind === 'rate_limited' && !applied && job.attempts < MAX_WRITE_ATTEMPTS) {
      return retryRateLimited(services, job, connection, error, rateLimitedSince);
    }
    if (error.retryable && job.attempts < MAX_WRITE_ATTEMPTS) {
      await releaseForRetry(services.pool, job.id, error.indeterminate || applied);
      return 'retry';
    }
    const final = error.toServiceError();
    // A 5xx or timeout on the last attempt: the client must know the write may be on the platform.
    if ((error.indeterminate || job.indeterminate) && final.metadata !== undefined) final.metadata.indeterminate = true;
    await finishFailed(services, job, connection, final);
    return 'done';
  }
  // Our own failure (a lost database connection, a bug): try again; if the platform had accepted, the retry re-reads it first.
  if (job.attempts < MAX_WRITE_ATTEMPTS) {
    await releaseForRetry(services.pool, job.id, applied).catch(() => undefined);
    return 'retry';
  }
  await finishFailed(
    services,
    job,
    connection,
    new ServiceError(
      'INTERNAL_ERROR',
      `Job ${job.id} failed inside the service: ${error instanceof Error ? error.message : String(error)}${applied ? '; the platform had accepted the write' : ''}.`,
      { source: 'service', indeterminate: applied },
    ),
  );
  return 'done';
}
