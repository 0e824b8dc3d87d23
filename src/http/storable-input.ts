/**
 * Values PostgreSQL cannot store as the client sent them, found before any
 * route runs: a NUL character (text and jsonb refuse it, so it used to end
 * in a 500), a lone UTF-16 surrogate (not Unicode: the driver would store
 * U+FFFD in its place and the value would silently change) and, in a JSON
 * body, a number JSON.parse read as Infinity (`1e309`). One walk over path
 * parameters, query string, headers and body names the first such value.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ServiceError } from '../errors/catalogue.ts';
import { LOCATION_WORDS, type Location } from './validation.ts';

/** What is wrong with a piece of text, or null when PostgreSQL stores it unchanged. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which text cannot hold';
  if (!text.isWellFormed()) return 'contains a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF), which is not valid Unicode';
  return null;
}

/** True when the text has a C0 control character, DEL, or U+FFFD (what undecodable UTF-8 bytes become). */
export function hasControlOrUndecodable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0xfffd) return true;
  }
  return false;
}

export interface Unstorable {
  field: string;
  problem: string;
}

/**
 * No request of this API nests deeper than a few levels; a 1 MiB body can
 * nest half a million. Refusing past this depth keeps the walk recursive
 * (no allocation for values that pass) without risking the call stack.
 */
export const MAX_NESTING = 64;

/** `bill.line_items[0].description`; names escaped, so the answer itself never carries a NUL or a lone surrogate. */
export function pathOf(keys: readonly (string | number)[]): string {
  let path = '';
  for (const key of keys) {
    if (typeof key === 'number') path += `[${key}]`;
    else path += path === '' ? JSON.stringify(key).slice(1, -1) : `.${JSON.stringify(key).slice(1, -1)}`;
  }
  return path;
}

function valueProblem(value: unknown): string | null {
  if (typeof value === 'string') return textProblem(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return 'must be a finite number; this one is too large to be represented';
  return null;
}

/** Where the problem is (its keys, innermost first, filled in while unwinding) and what it is. */
interface Found {
  keys: (string | number)[];
  problem: string;
}

function walk(value: unknown, depth: number): Found | null {
  const problem = valueProblem(value);
  if (problem !== null) return { keys: [], problem };
  // Raw bytes (an upload) are not text.
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return null;
  if (depth >= MAX_NESTING) return { keys: [], problem: `is nested more than ${MAX_NESTING} levels deep` };
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    for (let i = 0; i < items.length; i++) {
      const found = walk(items[i], depth + 1);
      if (found !== null) {
        found.keys.push(i);
        return found;
      }
    }
    return null;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const keyProblem = textProblem(key);
    if (keyProblem !== null) return { keys: [key], problem: `has a name that ${keyProblem}` };
    const found = walk(record[key], depth + 1);
    if (found !== null) {
      found.keys.push(key);
      return found;
    }
  }
  return null;
}

/** The first value (in document order) that cannot be stored as sent, with its path. */
export function findUnstorable(root: unknown): Unstorable | null {
  const found = walk(root, 0);
  return found === null ? null : { field: pathOf(found.keys.reverse()), problem: found.problem };
}

/** The parts of a request a client writes, in the order they are judged. */
const PARTS: readonly [Location, (request: FastifyRequest) => unknown][] = [
  ['params', (request) => request.params],
  ['query', (request) => request.query],
  ['headers', (request) => request.headers],
  ['body', (request) => request.body],
];

/** The 400 for the first value of the request that cannot be stored as sent, or null. */
export function unstorableInputError(request: FastifyRequest): ServiceError | null {
  for (const [location, partOf] of PARTS) {
    const found = findUnstorable(partOf(request));
    if (found === null) continue;
    const where = found.field === '' ? `The ${LOCATION_WORDS[location]}` : `\`${found.field}\` in the ${LOCATION_WORDS[location]}`;
    return new ServiceError('VALIDATION_ERROR', `${where} ${found.problem}.`, { source: 'service', field: found.field, location });
  }
  return null;
}

/** preValidation hook: refuses such a request (400, field named) before validation, handlers or the database see it. */
export function refuseUnstorableInput(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const error = unstorableInputError(request);
  if (error === null) done();
  else done(error);
}
