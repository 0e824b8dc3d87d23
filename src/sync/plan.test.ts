import { describe, expect, it } from 'vitest';
import { detectsDeletionsByListing, initialBatches } from './plan.ts';

const reference = new Date('2026-06-15T00:00:00.000Z');

describe('initial sync plan', () => {
  it('reads undated objects whole and dated ones 24 months back by default', () => {
    expect(initialBatches(null, 'ACCOUNT', false, reference)).toEqual([{ window: null, monthsAgo: null }]);
    expect(initialBatches(null, 'BILL', true, reference)).toEqual([
      { window: { start: '2024-06-15T00:00:00.000Z', end: '9999-12-31T23:59:59.999Z' }, monthsAgo: null },
    ]);
  });

  it('honours per-entity months and 0 = everything', () => {
    expect(initialBatches({ historical_months: 0 }, 'BILL', true, reference)).toEqual([{ window: null, monthsAgo: null }]);
    expect(initialBatches({ historical_months: 12, entity_historical_months: { BILL: 3 } }, 'BILL', true, reference)[0]?.window?.start).toBe(
      '2026-03-15T00:00:00.000Z',
    );
  });

  it('splits into disjoint windows, newest first, with data batching', () => {
    const batches = initialBatches({ historical_months: 12, data_batching: { months: [1, 6] } }, 'BILL', true, reference);
    expect(batches).toEqual([
      { window: { start: '2026-05-15T00:00:00.000Z', end: '9999-12-31T23:59:59.999Z' }, monthsAgo: 1 },
      { window: { start: '2025-12-15T00:00:00.000Z', end: '2026-05-15T00:00:00.000Z' }, monthsAgo: 6 },
      { window: { start: '2025-06-15T00:00:00.000Z', end: '2025-12-15T00:00:00.000Z' }, monthsAgo: null },
    ]);
  });

  it('detects deletions only from complete unwindowed listings', () => {
    const caps = {
      read: true,
      incremental: 'none',
      deletions: 'full_listing',
      filter: true,
      fetchByPlatformId: true,
      create: false,
      update: false,
      delete: false,
    } as const;
    expect(detectsDeletionsByListing(caps, null, null)).toBe(true);
    expect(detectsDeletionsByListing(caps, 'cursor', null)).toBe(false);
    expect(detectsDeletionsByListing(caps, null, { start: 'a', end: 'b' })).toBe(false);
    expect(detectsDeletionsByListing({ ...caps, deletions: 'reported' }, null, null)).toBe(false);
  });
});
