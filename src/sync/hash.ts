import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level: equal values give equal text.
 * Stored hashes depend on this exact text, so its output must never change
 * (hash.test.ts checks it against the first, simplest implementation). Written
 * as loops because the sync runs it twice per record (measured: the largest
 * CPU cost of a sync after mapping).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      // Like Array.prototype.join: an element with no JSON text (undefined, a function) contributes nothing.
      const element = canonicalJson(value[i]) as string | undefined;
      if (element !== undefined) text += element;
    }
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, as < does.
  const keys = Object.keys(object).sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const item = object[key];
    if (item === undefined) continue;
    if (!first) text += ',';
    first = false;
    text += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${text}}`;
}

export function contentHash(value: unknown): Buffer {
  return createHash('sha256').update(canonicalJson(value)).digest();
}
