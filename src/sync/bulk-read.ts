/**
 * Bulk and asynchronous exports as a read mode (ObjectHandler.bulk, src/platforms/connector.ts): the runner reads an
 * object through `pageReader`, which for a full read of a handler with `bulk` starts the export once, polls it and
 * then reads its results page by page, the result cursor standing in for the page token (sync_objects.page_token, so
 * results resume at the saved page like any read). The export id and status are kept in sync_exports (migration
 * 0028): a run restarted after a crash polls the same export instead of starting another. While the export runs the
 * run gives its worker back: `ExportPending` ends the delivery and `waitForExport` queues the run again for the time
 * the platform suggests, as the runner's pause hand-off does.
 *
 * A result cursor may hold the platform's link to the results (SHOPIFY's is a bearer URL to the shop's data, good for
 * 7 days): it is sealed wherever it rests, in sync_exports and in the page tokens the runner saves (migration 0037),
 * and the export's row is dropped with the read's last page (runner.ts).
 */
import type { CoreServices } from '../core-services.ts';
import type { Cipher } from '../crypto/secrets.ts';
import { withTransaction, type Queryable } from '../db/pool.ts';
import type { BulkRead, ConnectorContext, ObjectHandler, ReadPage, ReadRequest } from '../platforms/connector.ts';
import { QUEUES } from '../queue/names.ts';
import { findSyncExport, type ExportScope, type SyncExport } from '../sql/find-sync-export.ts';
import { forgetSyncExport } from '../sql/forget-sync-export.ts';
import { saveSyncExport } from '../sql/save-sync-export.ts';
import { requeueRunForPause } from '../sql/sync-runs.ts';

/** Between polls when the platform suggests no time; pg-boss schedules in whole seconds, so at least one. */
const DEFAULT_POLL_MS = 2_000;
const MIN_POLL_SECONDS = 1;

/** The export is still being prepared: the run waits `retryAfterMs` without a worker. */
export class ExportPending extends Error {
  readonly exportId: string;
  readonly retryAfterMs: number;
  constructor(exportId: string, retryAfterMs: number) {
    super(`export ${exportId} is not ready yet`);
    this.exportId = exportId;
    this.retryAfterMs = retryAfterMs;
  }
}

export type PageReader = (request: ReadRequest) => Promise<ReadPage>;

/** How the runner reads one batch of an object: the export for a full read of a bulk handler, else its pages. */
export function pageReader(db: Queryable, cipher: Cipher, ctx: ConnectorContext, handler: ObjectHandler, scope: ExportScope): PageReader {
  const bulk = handler.bulk;
  return (request) => (bulk === undefined || request.since !== null ? handler.read(ctx, request) : readExport(db, cipher, ctx, bulk, scope, request));
}

/** A sealed page token: this prefix, then the sealed cursor in base64url. */
const SEALED_TOKEN = 'sealed:';

export function sealPageToken(cipher: Cipher, cursor: string): string {
  return `${SEALED_TOKEN}${cipher.encrypt(cursor).toString('base64url')}`;
}

/** The cursor a page token stands for; one saved before tokens were sealed is the cursor itself. */
export function openPageToken(cipher: Cipher, token: string): string {
  return token.startsWith(SEALED_TOKEN) ? cipher.decrypt(Buffer.from(token.slice(SEALED_TOKEN.length), 'base64url')) : token;
}

async function readExport(
  db: Queryable,
  cipher: Cipher,
  ctx: ConnectorContext,
  bulk: BulkRead,
  scope: ExportScope,
  request: ReadRequest,
): Promise<ReadPage> {
  let state = await findSyncExport(db, scope);
  if (state === null) {
    const exportId = await bulk.startExport(ctx, { since: request.since, window: request.window });
    // Saved before the first poll: from here on a crash resumes this export.
    state = { exportId, status: 'running', resultCursorCiphertext: null };
    await saveSyncExport(db, scope, state);
  }
  if (state.status === 'running') state = await pollUntilReady(db, cipher, ctx, bulk, scope, state);
  const start = state.resultCursorCiphertext === null ? null : cipher.decrypt(state.resultCursorCiphertext);
  const page = await bulk.readExportPage(ctx, state.exportId, request.pageToken === null ? start : openPageToken(cipher, request.pageToken));
  return {
    records: page.records,
    nextPageToken: page.nextCursor === null ? null : sealPageToken(cipher, page.nextCursor),
    ...(page.deletedPlatformIds === undefined ? {} : { deletedPlatformIds: page.deletedPlatformIds }),
    ...(page.nextSince === undefined ? {} : { nextSince: page.nextSince }),
  };
}

/** One poll: the ready export, or ExportPending; a failed export is forgotten so the run's retry starts a new one. */
async function pollUntilReady(
  db: Queryable,
  cipher: Cipher,
  ctx: ConnectorContext,
  bulk: BulkRead,
  scope: ExportScope,
  state: SyncExport,
): Promise<SyncExport> {
  const polled = await bulk.pollExport(ctx, state.exportId);
  if (polled.status === 'failed') {
    await forgetSyncExport(db, scope.connectionId, scope.objectType, state.exportId);
    throw new Error(`the platform's export ${state.exportId} of ${scope.objectType} failed: ${polled.message}`);
  }
  if (polled.status === 'running') throw new ExportPending(state.exportId, polled.retryAfterMs ?? DEFAULT_POLL_MS);
  const cursor = polled.resultCursor ?? null;
  const ready: SyncExport = { ...state, status: 'ready', resultCursorCiphertext: cursor === null ? null : cipher.encrypt(cursor) };
  await saveSyncExport(db, scope, ready);
  return ready;
}

/** Queues the run again for the next poll; waiting spends none of its attempts. */
export async function waitForExport(
  services: CoreServices,
  runId: string,
  connectionId: string,
  pending: Pick<ExportPending, 'retryAfterMs'>,
): Promise<Date> {
  const seconds = Math.max(MIN_POLL_SECONDS, Math.ceil(pending.retryAfterMs / 1000));
  await withTransaction(services.pool, async (db) => {
    await requeueRunForPause(db, runId, null, true);
    await services.jobs.send(QUEUES.sync, { syncRunId: runId, connectionId }, { startAfterSeconds: seconds }, db);
  });
  return new Date(Date.now() + seconds * 1000);
}
