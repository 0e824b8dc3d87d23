/**
 * Which reads a sync run makes: per object type, a list of steps (date
 * windows, newest first) with or without an incremental cursor. Pure, so the
 * same run always plans the same steps — which is what lets a crashed run resume.
 */
import type { ObjectCapabilities } from '../platforms/connector.ts';
import { DEFAULT_HISTORICAL_MONTHS, type SyncConfig } from '../connections/sync-config.ts';

export interface Window {
  start: string;
  end: string;
}

export interface Batch {
  /** Window on the record's business date; null = no bound. */
  window: Window | null;
  /** For HISTORICAL_UPDATE: how far back the data reaches once this batch is done (null: not a historical batch). */
  monthsAgo: number | null;
}

const FAR_PAST = '0001-01-01T00:00:00.000Z';
const FAR_FUTURE = '9999-12-31T23:59:59.999Z';

export function monthsBefore(reference: Date, months: number): string {
  const d = new Date(reference);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString();
}

/** Batches of an initial sync for one object type. Undated objects are read whole in one batch. */
export function initialBatches(config: SyncConfig | null, entity: string, dated: boolean, reference: Date): Batch[] {
  const historical = config?.entity_historical_months?.[entity] ?? config?.historical_months ?? DEFAULT_HISTORICAL_MONTHS;
  if (!dated) return [{ window: null, monthsAgo: null }];
  const oldest = historical === 0 ? FAR_PAST : monthsBefore(reference, historical);
  const cuts = (config?.data_batching?.months ?? []).filter((m) => historical === 0 || m < historical);
  if (cuts.length === 0) return [{ window: historical === 0 ? null : { start: oldest, end: FAR_FUTURE }, monthsAgo: null }];
  const batches: Batch[] = [];
  let end = FAR_FUTURE;
  for (const months of cuts) {
    const start = monthsBefore(reference, months);
    batches.push({ window: { start, end }, monthsAgo: months });
    end = start;
  }
  batches.push({ window: { start: oldest, end }, monthsAgo: null });
  return batches;
}

/** Whether the read is a full, unwindowed listing whose end proves which records are gone. */
export function detectsDeletionsByListing(capabilities: ObjectCapabilities, since: string | null, window: Window | null): boolean {
  return capabilities.deletions === 'full_listing' && since === null && window === null;
}
