import { hash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level: equal values give equal text.
 * Stored hashes depend on this exact text, so its output must never change
 * (hash.test.ts checks it against the first, simplest implementation). The
 * sync runs it twice per record, its largest CPU cost: plain JSON-parsed values
 * are copied with their keys in sorted order and handed to the native
 * JSON.stringify (about 1.6x faster); anything else takes the general path.
 */
export function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(sortedCopy(value));
  } catch (error) {
    if (error instanceof NeedsGeneralPath) return generalCanonicalJson(value);
    throw error;
  }
}

/** Thrown by sortedCopy where JSON.stringify of a copy would not give the canonical text. */
class NeedsGeneralPath extends Error {}
const needsGeneralPath = new NeedsGeneralPath();

/** Integer-like keys are enumerated before the others whatever the insertion order, so a copy cannot sort them. */
const INTEGER_LIKE_KEY = /^(?:0|[1-9]\d*)$/;

function sortedCopy(value: unknown): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      throw needsGeneralPath;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const element: unknown = value[i];
      // The general path writes nothing for these where JSON.stringify writes null.
      if (element === undefined) throw needsGeneralPath;
      copy[i] = sortedCopy(element);
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw needsGeneralPath;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let sorted = true;
  let previous = '';
  for (const key of keys) {
    if (key === '__proto__' || INTEGER_LIKE_KEY.test(key)) throw needsGeneralPath;
    if (previous > key) sorted = false;
    previous = key;
  }
  // The default sort compares UTF-16 code units, as < does.
  if (!sorted) keys.sort();
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    const item = object[key];
    if (item !== undefined) copy[key] = sortedCopy(item);
  }
  return copy;
}

/** Any value, written out by hand. */
function generalCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      // Like Array.prototype.join: an element with no JSON text (undefined, a function) contributes nothing.
      const element = generalCanonicalJson(value[i]) as string | undefined;
      if (element !== undefined) text += element;
    }
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const item = object[key];
    if (item === undefined) continue;
    if (!first) text += ',';
    first = false;
    text += `${JSON.stringify(key)}:${generalCanonicalJson(item)}`;
  }
  return `${text}}`;
}

/** SHA-256 of the canonical JSON. */
export function contentHash(value: unknown): Buffer {
  return hashOfText(canonicalJson(value));
}

/** SHA-256 of a text: contentHash of a value whose canonicalJson is at hand (one-shot crypto.hash: about half the cost of createHash for texts this small). */
export function hashOfText(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}
