import { Type, type Static } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser, sessionEnvironment } from '../../../http/session-auth.ts';
import { Nullable } from '../../../model/shared.ts';
import { runningSyncObjects, type RunningSyncObjectRow } from '../../../sql/dashboard-running-syncs.ts';
import { ConnectionRefSchema } from './schemas.ts';
import { estimatedCompletion } from './estimate.ts';

const ObjectProgressSchema = Type.Object({
  object_type: Type.String(),
  status: Type.String({ description: 'in_progress, completed (by this run) or failed.' }),
  records_read: Type.Integer({ minimum: 0, description: 'Records this run has read of the object so far.' }),
  pages_read: Type.Integer({ minimum: 0, description: 'Pages this run has read of the object so far.' }),
  expected_records: Nullable(Type.Integer({ minimum: 0 }), "Records the object's last full read found; null when none has completed."),
  estimated_completion_at: Nullable(
    Type.String({ format: 'date-time' }),
    'From the rate so far and expected_records; null when either is unknown or the object is done.',
  ),
});

const RunSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.String(),
  trigger: Type.String(),
  started_at: Nullable(Type.String({ format: 'date-time' })),
  connection: ConnectionRefSchema,
  objects: Type.Array(ObjectProgressSchema, { description: 'The objects the run has begun reading; others wait their turn.' }),
});

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/syncs/running',
  auth: 'session',
  tags: ['Dashboard'],
  summary: "Syncs running now in the session's organisation and environment, with each object's progress (kept page by page).",
  success: { status: 200, schema: Type.Object({ runs: Type.Array(RunSchema) }) },
  errors: ['VALIDATION_ERROR', 'SESSION_REQUIRED', 'RATE_LIMIT_EXCEEDED'],
});

type Run = Static<typeof RunSchema>;

function runsOf(rows: readonly RunningSyncObjectRow[], now: Date): Run[] {
  const runs = new Map<string, Run>();
  for (const row of rows) {
    let run = runs.get(row.run_id);
    if (run === undefined) {
      run = {
        id: row.run_id,
        kind: row.kind,
        trigger: row.trigger,
        started_at: row.run_started_at?.toISOString() ?? null,
        connection: { id: row.connection_id, name: row.connection_name, platform: row.platform, store_name: row.store_name },
        objects: [],
      };
      runs.set(row.run_id, run);
    }
    if (row.object_type === null) continue;
    const recordsRead = row.run_records_read ?? 0;
    // Only an initial sync reads what the last full read did; an incremental or a backfill reads a part of unknown size.
    const expected = row.kind === 'initial' ? row.last_full_read_records : null;
    const eta =
      row.object_status === 'in_progress'
        ? estimatedCompletion({ recordsRead, expectedRecords: expected, elapsedSeconds: row.elapsed_seconds ?? 0 }, now)
        : null;
    run.objects.push({
      object_type: row.object_type,
      status: row.object_status ?? 'in_progress',
      records_read: recordsRead,
      pages_read: row.run_pages_read ?? 0,
      expected_records: expected,
      estimated_completion_at: eta?.toISOString() ?? null,
    });
  }
  return [...runs.values()];
}

export default defineEndpoint(contract, async (request) => {
  const user = requireDashboardUser(request);
  const rows = await runningSyncObjects(request.server.services.pool, user.organizationId, sessionEnvironment(request));
  return { runs: runsOf(rows, new Date()) };
});
