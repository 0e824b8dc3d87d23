import { describe, expect, it } from 'vitest';
import type { ConnectorContext } from './connector.ts';
import { nextOffset, nextPageNumber, nextSince, latestModified, newestFirst, pageTokens, withTombstones } from './paging.ts';
import {
  AnswerShapeError,
  baseCurrency,
  currency,
  decimal,
  fromMinor,
  isoTime,
  knownBase,
  namesUnknownCurrency,
  strictReaders,
  sumAmounts,
  text,
} from './readers.ts';

// Only identity matters: per-job values are keyed by the context object.
const job = (): ConnectorContext => ({}) as ConnectorContext;

describe('answer readers', () => {
  it('read absent and blank text as null, other text as written', () => {
    expect([text(undefined), text(null), text(''), text('  '), text(3)]).toEqual([null, null, null, null, null]);
    expect(text(' Ada ')).toBe(' Ada ');
  });

  it('read known currencies in any case, anything else as the base currency', () => {
    expect(currency('usd', null)).toBe('USD');
    expect(currency('ZZZ', 'NZD')).toBe('NZD');
    expect(currency(undefined, 'NZD')).toBeNull();
  });

  it('find a currency the model does not know at any depth, in the fields named', () => {
    expect(namesUnknownCurrency({ net: { currencyCode: 'USD' }, lines: [{ currencyCode: 'ZZZ' }] }, ['currencyCode'])).toBe(true);
    expect(namesUnknownCurrency({ net: { currencyCode: 'usd' }, currency: 'ZZZ', none: { currencyCode: null } }, ['currencyCode'])).toBe(false);
  });

  it('learn the base currency once per job, only a known code', async () => {
    let loads = 0;
    const base = baseCurrency(() => Promise.resolve(++loads === 1 ? 'eur' : 'nope'));
    const first = job();
    expect(knownBase(base, first)).toBeNull();
    expect(await base.get(first)).toBe('EUR');
    expect(await base.get(first)).toBe('EUR');
    expect(knownBase(base, first)).toBe('EUR');
    expect(await base.get(job())).toBeNull();
    expect(loads).toBe(2);
  });

  it('read exact amounts and dates', () => {
    expect([decimal('12.50'), decimal(3), decimal('1e3'), decimal('12,5'), decimal(Number.NaN)]).toEqual([12.5, 3, null, null, null]);
    expect([fromMinor(1999, 2), fromMinor(1234, 0), fromMinor(1234, 3)]).toEqual([19.99, 1234, 1.234]);
    expect(sumAmounts([0.1, 0.2])).toBe(0.3);
    expect([isoTime('2026-01-02T03:04:05Z'), isoTime('yesterday')]).toEqual(['2026-01-02T03:04:05Z', null]);
  });

  it('throw a named shape error for a required field', () => {
    const { needText, needInteger } = strictReaders('Stripe');
    expect(() => needText({ id: 'ch_1', object: 'charge' }, 'status')).toThrow(
      new AnswerShapeError('Stripe', { id: 'ch_1', object: 'charge' }, 'status', 'a string'),
    );
    expect(() => needInteger({ amount: 1.5 }, 'amount')).toThrow(/amount is not an integer/);
  });
});

describe('paging primitives', () => {
  it('encode page tokens and refuse others', () => {
    const tokens = pageTokens('TEST', (v) => (typeof v.after === 'string' ? { after: v.after } : null));
    expect(tokens.decode(tokens.encode({ after: 'x' }))).toEqual({ after: 'x' });
    expect(tokens.decode(null)).toBeNull();
    expect(() => tokens.decode('nope')).toThrow(/not the connector’s own/);
  });

  it('page by number, offset with overlap, keyset on modified time', () => {
    expect([nextPageNumber(1, 100, 100), nextPageNumber(2, 99, 100)]).toEqual([2, null]);
    expect([nextOffset(0, 100, 100, 5), nextOffset(95, 10, 100, 5)]).toEqual([95, null]);
    expect(latestModified('2026-01-01T00:00:00Z', ['2026-01-03T00:00:00Z', null, '2026-01-02T00:00:00Z'])).toBe('2026-01-03T00:00:00Z');
    expect([nextSince(null, 'a'), nextSince('b', 'a')]).toEqual(['a', 'b']);
  });

  it('see deletions as tombstones and in events newest first', () => {
    const page = withTombstones(
      [
        { platformId: '1', raw: { Status: 'DELETED' } },
        { platformId: '2', raw: {} },
      ],
      (r) => r.raw.Status === 'DELETED',
    );
    expect(page).toEqual({ records: [{ platformId: '2', raw: {} }], deletedPlatformIds: ['1'] });
    const seen = new Set(['c']);
    const events = [
      { id: 'a', v: 2, gone: false },
      { id: 'a', v: 1, gone: false },
      { id: 'b', v: 1, gone: true },
      { id: 'c', v: 1, gone: false },
    ];
    expect(newestFirst(events, seen, (e) => ({ id: e.id, deleted: e.gone, raw: { v: e.v } }))).toEqual({ changed: [{ v: 2 }], deleted: ['b'] });
  });
});
