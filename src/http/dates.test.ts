import { describe, expect, it } from 'vitest';
import { FIRST_INSTANT_MS, isDateOrTimestamp, isStorableDate, isStorableDateTime } from './dates.ts';
import { isRealInstant } from './keyset-cursor.ts';
import { isUuid } from './uuid.ts';

describe('dates PostgreSQL stores as sent', () => {
  it('date: years 0001 to 9999, days that exist', () => {
    for (const ok of ['0001-01-01', '0099-12-31', '2024-02-29', '9999-12-31']) expect(isStorableDate(ok), ok).toBe(true);
    for (const bad of ['0000-01-01', '2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '10000-01-01', '2024-1-1', ''])
      expect(isStorableDate(bad), bad).toBe(false);
  });

  it('date-time: RFC 3339 with a zone, offsets within ±15:59, second 60 only as a UTC leap second', () => {
    for (const ok of [
      '2024-01-01T00:00:00Z',
      '2024-01-01t00:00:00z',
      '2024-01-01 00:00:00.123456789+15:59',
      '0001-01-01T00:00:00+01:00',
      '2016-12-31T23:59:60Z',
      '2017-01-01T00:59:60+01:00',
      '9999-12-31T23:59:59.999-1530',
    ])
      expect(isStorableDateTime(ok), ok).toBe(true);
    for (const bad of [
      '0000-06-01T00:00:00Z',
      '2024-01-01T00:00:00+16:00',
      '2024-01-01T00:00:00+23:00',
      '2024-01-01T00:00:00',
      '2024-01-01T24:00:00Z',
      '2024-01-01T12:00:60Z',
      '2024-02-30T00:00:00Z',
      '2024-01-01T00:00Z',
    ])
      expect(isStorableDateTime(bad), bad).toBe(false);
  });

  it('date-or-date-time: a day, or a timestamp with a zone; years below 100 are real years (not 19xx)', () => {
    for (const ok of ['2024-05-01', '0050-02-28', '2024-05-01T10:00Z', '2024-05-01T10:00:00.5+02:00']) expect(isDateOrTimestamp(ok), ok).toBe(true);
    for (const bad of ['0000-01-01', '2024-05-01T10:00:00+20:00', '2024-02-30', '2024-05-01T10:00', '0000-01-01T00:00Z'])
      expect(isDateOrTimestamp(bad), bad).toBe(false);
  });

  it('cursor instants start at 0001-01-01', () => {
    expect(new Date(FIRST_INSTANT_MS).toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(isRealInstant('0001-01-01T00:00:00.000000Z')).toBe(true);
    expect(isRealInstant('0000-12-31T23:59:59.000000Z')).toBe(false);
  });
});

describe('isUuid', () => {
  it('accepts the 8-4-4-4-12 hex shape in either case, whatever its version nibble, and nothing else', () => {
    for (const ok of ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'ffffffff-ffff-ffff-ffff-ffffffffffff'])
      expect(isUuid(ok)).toBe(true);
    for (const bad of [
      '------------------------------------',
      'urn:uuid:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      'a0eebc999c0b4ef8bb6d6bb9bd380a11----',
      'g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    ])
      expect(isUuid(bad)).toBe(false);
  });
});
