/**
 * The write job state machine. A job moves only along these edges; every SQL
 * update of a job's status names the states it may leave (src/sql/write-jobs.ts),
 * so a stale worker can never move a finished job again.
 *
 *   pending ──claim──▶ in_progress ──▶ completed
 *      ▲                  │   │
 *      └── retry later ───┘   └──────▶ failed
 *   pending ──────────────────────────▶ failed   (connection gone, attempts spent)
 *
 * in_progress → in_progress is the reclaim of a job whose worker died mid-call:
 * the platform may have applied it, so the job is marked indeterminate first.
 */
export const JOB_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const ALLOWED_TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  pending: ['in_progress', 'failed'],
  in_progress: ['in_progress', 'pending', 'completed', 'failed'],
  completed: [],
  failed: [],
};

/** The states a job may be in for it to move to `to`. */
export function statesLeadingTo(to: JobStatus): JobStatus[] {
  return JOB_STATUSES.filter((from) => ALLOWED_TRANSITIONS[from].includes(to));
}

export function isFinished(status: JobStatus): boolean {
  return ALLOWED_TRANSITIONS[status].length === 0;
}

export const WRITE_OPERATIONS = [
  'create',
  'update',
  'delete',
  'apply_credit',
  'unapply_credit',
  'upload_attachment',
  'send_bank_feed_transactions',
  'bank_feed_mapping_link',
  'fulfill',
  // A record kept inside a commerce object (a product's variant), written through endpoints of its own (src/writes/nested.ts).
  'create_nested',
  'update_nested',
  'delete_nested',
] as const;
export type WriteOperation = (typeof WRITE_OPERATIONS)[number];

/** What a job does: a write, or a read asked with response_mode=async (finished when created, never executed). */
export type JobOperation = WriteOperation | 'read';
