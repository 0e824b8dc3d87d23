/**
 * The stand-in kit's record pieces on their own: the record store, records changed since a time, numbered pages, the
 * clock that never repeats, seeded data, and records read from a description's example answers.
 */
import { describe, expect, it } from 'vitest';
import { changedSince, MonotonicClock, pageOf, RecordStore } from './collections.ts';
import { exampleAnswers, recordsFromExamples } from './examples.ts';
import { seededRandom, withFreshUuids } from './random.ts';

describe('stand-in kit: records', () => {
  it('keeps records by their id field, in the order added, replacing one saved again', () => {
    const store = new RecordStore({ Items: 'ItemID' }, { Items: [{ ItemID: 'a', n: 1 }, { ItemID: 'b' }] });
    store.put('Items', { ItemID: 'a', n: 2 });
    expect(store.all('Items')).toEqual([{ ItemID: 'a', n: 2 }, { ItemID: 'b' }]);
    expect([store.has('Items', 'b'), store.get('Items', 'c'), store.size('Items')]).toEqual([true, undefined, 2]);
  });

  it('lists records changed at or after a time (those without one stay), and numbered pages', () => {
    const records = [{ at: 1000 }, { at: 2000 }, { at: null }];
    expect(changedSince(records, new Date(2000).toISOString(), (r) => r.at)).toEqual([{ at: 2000 }, { at: null }]);
    expect(changedSince(records, undefined, (r) => r.at)).toHaveLength(3);
    expect([pageOf([1, 2, 3, 4, 5], 2, 2), pageOf([1, 2, 3], 0, 2), pageOf([1, 2, 3], 3, 2)]).toEqual([[3, 4], [1, 2], []]);
  });

  it('never gives the same millisecond twice', () => {
    const clock = new MonotonicClock();
    const times = Array.from({ length: 50 }, () => clock.now());
    expect(new Set(times).size).toBe(50);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('seeds the same data from the same number, and renames every UUID consistently', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return [random.uuid(), random.int(10), random.pick(['a', 'b', 'c'])];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(draw(7)[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const one = 'a0000000-0000-4000-8000-000000000001';
    const zero = '00000000-0000-0000-0000-000000000000';
    const given = 'b0000000-0000-4000-8000-000000000002';
    const copy = JSON.parse(withFreshUuids({ x: one, y: [one.toUpperCase(), zero, given] }, seededRandom(1), { [given]: 'G' }, [zero])) as {
      x: string;
      y: string[];
    };
    expect(copy.x).not.toBe(one);
    expect(copy.y).toEqual([copy.x, zero, 'G']);
  });

  it("reads a collection's records from example answers: once per id, lines lent by a fuller copy", () => {
    const document = {
      paths: {
        '/Items': { get: { responses: { '200': { content: { 'application/json': { example: '{"Items":[{"ItemID":"1","Noise":1}]}' } } } } } },
        '/Items/{ItemID}': {
          get: {
            responses: { '200': { content: { 'application/json': { example: { Items: [{ ItemID: '1', Lines: [1, 2] }, { ItemID: '0' }] } } } } },
          },
          post: { responses: { '200': { content: { 'application/json': { example: 'undefined' } } } } },
        },
      },
    };
    const answers = exampleAnswers(document);
    expect(answers.map((a) => `${a.method} ${a.path}`)).toEqual(['GET /Items', 'GET /Items/{ItemID}']);
    const records = recordsFromExamples(answers, {
      under: '/Items',
      key: 'Items',
      idField: 'ItemID',
      skipIds: ['0'],
      drop: ['Noise'],
      details: ['Lines'],
    });
    expect(records).toEqual([{ ItemID: '1', Lines: [1, 2] }]);
  });
});
