/**
 * Every number of a JSON request body is the number the client wrote, or the request is refused (400 naming the
 * field): JSON.parse quietly makes `1.00000000000000000000001` into 1, `0.1e-400` into 0 and keeps `-0` as a zero
 * that JSON.stringify stores as 0, and the service never stores a number the client did not send (docs/writes.md,
 * "Numbers"). "Exactly" is decimal equality with what is stored (the number's shortest round-trip text): `1.50`,
 * `1e2` and `100e-2` are exact (1.5, 100, 1); a negative zero is refused. Non-finite numbers (`1e309`) are left to
 * the finite-number check (src/http/storable-input.ts), which names them so.
 *
 * The check sees the literals' text through JSON.parse's reviver context (`source`), which costs a call per value;
 * so it runs only on bodies whose text holds a literal that can be inexact (MAY_BE_INEXACT): one with an exponent,
 * sixteen or more digits, or a minus before a zero. Every other literal has at most 15 significant digits and no
 * exponent, and such a decimal survives a double unchanged.
 */
import type { FastifyBodyParser, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors/catalogue.ts';
import { convertsExactly } from '../money/decimal.ts';
import { pathOf } from './storable-input.ts';

declare global {
  interface JSON {
    /** The reviver's third argument (ES2026 "JSON.parse source text access", V8 since 11.4): a primitive's text. */
    parse(text: string, reviver: (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown): unknown;
  }
}

/**
 * A literal that can be inexact, after what may precede a value (`:`, `,`, `[`): exponent, 16 or more digit or
 * point characters, or a negative zero. Matches inside strings too: those only cost the slow path. Starting with
 * the separator class, not `(?:^|…)`, halves its cost (bench/exact-numbers.ts); a body that is one number is
 * TOP_LEVEL_NUMBER's.
 */
const MAY_BE_INEXACT = /[:,[]\s*(?:-?\d[\d.]*[eE]|-?[\d.]{16,}|-0(?:\.0*)?(?![\d.eE]))/;
const TOP_LEVEL_NUMBER = /^\s*-?\d/;

/** Stands in for an inexact literal while the body is searched for its path. */
class Inexact {
  readonly source: string;
  readonly value: number;
  constructor(source: string, value: number) {
    this.source = source;
    this.value = value;
  }
}

export interface InexactNumber {
  field: string;
  problem: string;
}

function problemOf(found: Inexact): string {
  if (Object.is(found.value, -0) && convertsExactly(found.source, 0)) {
    return `is ${found.source}, a negative zero, which would be stored as 0; send 0`;
  }
  return `is written ${found.source}, which no number holds exactly: it would be stored as ${String(found.value)}; send the value to be stored, with at most 15 significant digits`;
}

/** The path of the first Inexact in document order; an explicit stack, as a body may nest deeply. */
function firstInexact(root: unknown): { keys: (string | number)[]; found: Inexact } | null {
  const stack: { value: unknown; keys: (string | number)[] }[] = [{ value: root, keys: [] }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, keys } = visit;
    if (value instanceof Inexact) return { keys, found: value };
    if (typeof value !== 'object' || value === null) continue;
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item: unknown, i) => [i, item]) : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] ?? ['', null];
      stack.push({ value: child, keys: [...keys, key] });
    }
  }
  return null;
}

/** The first number of the JSON text that parsing changed, with its path; null when every one is exact. */
export function findInexactNumber(text: string): InexactNumber | null {
  if (!MAY_BE_INEXACT.test(text) && !TOP_LEVEL_NUMBER.test(text)) return null;
  const inexact: Inexact[] = [];
  const marked = JSON.parse(text, (_key, value, context) => {
    if (typeof value !== 'number' || context.source === undefined || !Number.isFinite(value)) return value;
    if (convertsExactly(context.source, value) && !Object.is(value, -0)) return value;
    const found = new Inexact(context.source, value);
    inexact.push(found);
    return found;
  });
  const first = inexact.length > 0 ? firstInexact(marked) : null;
  return first === null ? null : { field: pathOf(first.keys), problem: problemOf(first.found) };
}

type Done = (error: Error | null, body?: unknown) => void;

/** Fastify's JSON body parser (its own, with its errors and prototype-poisoning rules), refusing inexact numbers. */
export function exactNumbersJsonParser(parse: FastifyBodyParser<string>): (request: FastifyRequest, body: string, done: Done) => void {
  return (request, body, done) => {
    const checked: Done = (error, parsed) => {
      if (error !== null) {
        done(error);
        return;
      }
      const inexact = findInexactNumber(body);
      if (inexact === null) {
        done(null, parsed);
        return;
      }
      const where = inexact.field === '' ? 'The request body' : `\`${inexact.field}\` in the request body`;
      done(new ServiceError('VALIDATION_ERROR', `${where} ${inexact.problem}.`, { source: 'service', field: inexact.field, location: 'body' }));
    };
    // Fastify's own parser answers through `done`; a promise-returning one is followed all the same.
    const answer = parse(request, body, checked);
    if (answer instanceof Promise)
      answer.then(
        (parsed: unknown) => {
          checked(null, parsed);
        },
        (error: unknown) => {
          done(error instanceof Error ? error : new Error(String(error)));
        },
      );
  };
}
