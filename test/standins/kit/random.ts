/**
 * Seeded data for stand-ins: a small pseudo-random generator (mulberry32), so generated records are the same on every
 * run, and a copy of a record set under fresh UUIDs (a second organisation or shop with the same books).
 */

export interface SeededRandom {
  /** In [0, 1). */
  next(): number;
  /** An integer in [0, max). */
  int(max: number): number;
  /** A version 4 UUID. */
  uuid(): string;
  pick<T>(list: readonly T[]): T;
}

export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number): number => Math.floor(next() * max);
  const hex = (n: number): string => Array.from({ length: n }, () => int(16).toString(16)).join('');
  return {
    next,
    int,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + int(4)).toString(16)}${hex(3)}-${hex(12)}`,
    pick: <T>(list: readonly T[]): T => {
      const value = list[int(list.length)];
      if (value === undefined) throw new Error('pick from an empty list');
      return value;
    },
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * The JSON text of `value` with every UUID replaced consistently: by `given` where it names one (case aside), kept
 * where it is in `keep`, else by a fresh UUID of `random`. The caller parses it back into its own type.
 */
export function withFreshUuids(
  value: unknown,
  random: SeededRandom,
  given: Readonly<Record<string, string>> = {},
  keep: readonly string[] = [],
): string {
  const map = new Map<string, string>(Object.entries(given).map(([from, to]) => [from.toLowerCase(), to]));
  for (const id of keep) map.set(id.toLowerCase(), id);
  return JSON.stringify(value).replace(UUID, (id) => {
    const key = id.toLowerCase();
    let fresh = map.get(key);
    if (fresh === undefined) {
      fresh = random.uuid();
      map.set(key, fresh);
    }
    return fresh;
  });
}
