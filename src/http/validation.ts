/**
 * Request validation: bodies are validated strictly (no type coercion: a
 * string is never silently an amount); query strings and path params are
 * coerced, since everything there arrives as text. AJV errors become one
 * message that names the field and what to fix.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isDateOrTimestamp, isStorableDate, isStorableDateTime } from './dates.ts';
import { isUuid } from './uuid.ts';

/**
 * What a `pattern` means, in words, for the message of a value that does not match it: a schema puts it beside the
 * pattern (`Type.String({ pattern, [PATTERN_HINT]: 'must be … e.g. SANDBOX' })`) instead of letting the regular
 * expression be the message. Shown in OpenAPI too, as a vendor extension.
 */
export const PATTERN_HINT = 'x-pattern-hint';

function makeAjv(coerceTypes: boolean | 'array', allErrors: boolean): Ajv {
  // The explaining instances (allErrors: they run only on input already refused) keep each error's schema and value.
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors, verbose: allErrors, strict: false });
  // CommonJS package: under ESM its plugin function is the module's `default` property.
  ajvFormats.default(ajv);
  // Only dates PostgreSQL stores as sent (years 0001-9999, offsets within ±15:59): see dates.ts.
  ajv.addFormat('date', { type: 'string', validate: isStorableDate });
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime });
  // Write bodies take business dates as a day or a full timestamp (src/writes/input-schemas.ts).
  ajv.addFormat('date-or-date-time', { type: 'string', validate: isDateOrTimestamp });
  // ajv-formats also accepts a urn:uuid: prefix, which PostgreSQL's uuid type refuses.
  ajv.addFormat('uuid', { type: 'string', validate: isUuid });
  return ajv;
}

const bodyAjv = makeAjv(false, false);
const textAjv = makeAjv('array', false);
// Only for input already refused: every error, so the message can name an unknown field beside a missing one.
const bodyAjvAllErrors = makeAjv(false, true);
const textAjvAllErrors = makeAjv('array', true);

/**
 * Compiles a route's schema on the route's first request, not when the route is
 * registered: compiling every route's schemas up front took most of a second of
 * every start (docs/architecture.md, "Start-up"). AJV keeps one compiled
 * function per schema object, so routes sharing a schema (HEAD beside GET)
 * compile it once.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const [ajv, explaining] = httpPart === 'body' ? [bodyAjv, bodyAjvAllErrors] : [textAjv, textAjvAllErrors];
  let validate: ValidateFunction | undefined;
  let explain: ValidateFunction | undefined;
  return (raw: unknown) => {
    validate ??= ajv.compile(schema as object);
    // A request without a body (Fastify passes null) is validated as an empty object: optional-only bodies may be left out.
    const data = httpPart === 'body' && (raw === undefined || raw === null) ? {} : raw;
    if (validate(data)) return { value: data };
    explain ??= explaining.compile(schema as object);
    return { error: new ValidationFailure(explain(data) ? (validate.errors ?? []) : (explain.errors ?? [])) };
  };
};

export type Location = 'body' | 'query' | 'params' | 'headers';

export class ValidationFailure extends Error {
  readonly errors: ErrorObject[];
  constructor(errors: ErrorObject[]) {
    super('validation failed');
    this.errors = errors;
  }
}

function fieldPath(error: ErrorObject): string {
  const base = error.instancePath
    .replace(/^\//, '')
    .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
    .replaceAll('/', '.');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty?: string }).missingProperty ?? '';
    return base === '' ? missing : `${base}.${missing}`;
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty ?? '';
    return base === '' ? extra : `${base}.${extra}`;
  }
  return base;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field; remove it';
    case 'type':
      return `must be of type ${String(params.type)}`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'format':
      return params.format === 'date-or-date-time'
        ? 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone'
        : `must be a valid ${String(params.format)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(params.comparison)} ${String(params.limit)}`;
    case 'minLength':
      return `must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    case 'minItems':
      return `must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    case 'pattern':
      return patternHint(error) ?? `must match the pattern ${String(params.pattern)}`;
    case 'anyOf':
    case 'oneOf':
      return 'does not match any allowed shape';
    default:
      return error.message ?? 'is invalid';
  }
}

/** The schema's words for its pattern, with the value that missed it when short enough to quote. */
function patternHint(error: ErrorObject): string | null {
  const schema: unknown = error.parentSchema;
  if (typeof schema !== 'object' || schema === null || !(PATTERN_HINT in schema)) return null;
  const hint: unknown = Reflect.get(schema, PATTERN_HINT);
  if (typeof hint !== 'string') return null;
  const value: unknown = error.data;
  return typeof value === 'string' && value.length <= 60 ? `${hint} (got ${JSON.stringify(value)})` : hint;
}

export const LOCATION_WORDS: Record<Location, string> = { body: 'request body', query: 'query string', params: 'path', headers: 'headers' };

export function locationOf(validationContext: string | undefined): Location {
  if (validationContext === 'querystring') return 'query';
  if (validationContext === 'params' || validationContext === 'headers') return validationContext;
  return 'body';
}

/**
 * The values a union of literals accepts, when `first` failed one of its branches: AJV reports each branch's `const`
 * (or `enum`) error and then the union's, so the first error alone would name just the first value.
 */
function unionLiterals(errors: ErrorObject[], first: ErrorObject): unknown[] | null {
  const union = errors.find(
    (e) =>
      (e.keyword === 'anyOf' || e.keyword === 'oneOf') && e.instancePath === first.instancePath && first.schemaPath.startsWith(`${e.schemaPath}/`),
  );
  if (union === undefined) return null;
  const values = errors
    .filter((e) => e.instancePath === first.instancePath && e.schemaPath.startsWith(`${union.schemaPath}/`))
    .flatMap((e) => {
      const params = e.params as Record<string, unknown>;
      if (e.keyword === 'const') return [params.allowedValue];
      const allowed: unknown = params.allowedValues;
      return e.keyword === 'enum' && Array.isArray(allowed) ? allowed.map((value: unknown) => value) : [];
    });
  return values.length === 0 ? null : [...new Set(values)];
}

/** Unknown fields of the object that also lacks the required field `first` names. */
function unknownBeside(errors: ErrorObject[], first: ErrorObject): string[] {
  return errors.filter((e) => e.keyword === 'additionalProperties' && e.instancePath === first.instancePath).map(fieldPath);
}

/** `limit` in the query string must be <= 500. */
export function validationMessage(errors: ErrorObject[], location: Location): { message: string; field: string } {
  const first = errors[0];
  if (first === undefined) return { message: `The ${LOCATION_WORDS[location]} is invalid.`, field: '' };
  const unknown = first.keyword === 'required' ? unknownBeside(errors, first) : [];
  if (unknown.length > 0) {
    // A missing field beside an unknown one is often its misspelling (or a wrapper left out): name both.
    const names = unknown.map((name) => `\`${name}\``).join(', ');
    const missing = fieldPath(first);
    const message = `\`${missing}\` in the ${LOCATION_WORDS[location]} is required; ${names} ${unknown.length === 1 ? 'is not a known field' : 'are not known fields'} there.`;
    return { message, field: missing };
  }
  const field = fieldPath(first);
  const literals = unionLiterals(errors, first);
  const what = literals === null ? describe(first) : `must be one of: ${literals.map(String).join(', ')}`;
  if (field === '') return { message: `The ${LOCATION_WORDS[location]} ${what}.`, field };
  return { message: `\`${field}\` in the ${LOCATION_WORDS[location]} ${what}.`, field };
}
