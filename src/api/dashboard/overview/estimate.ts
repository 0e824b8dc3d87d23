/**
 * An object's estimated completion within a running sync: the rate so far applied to what the object's last full read
 * found. Unknown (null) before any record, without an earlier full read, or once the run has read more than that.
 */
export interface ObjectProgress {
  recordsRead: number;
  expectedRecords: number | null;
  elapsedSeconds: number;
}

export function estimatedCompletion(progress: ObjectProgress, now: Date): Date | null {
  const { recordsRead, expectedRecords, elapsedSeconds } = progress;
  if (expectedRecords === null || recordsRead <= 0 || elapsedSeconds <= 0 || recordsRead > expectedRecords) return null;
  const perSecond = recordsRead / elapsedSeconds;
  return new Date(now.getTime() + ((expectedRecords - recordsRead) / perSecond) * 1000);
}
