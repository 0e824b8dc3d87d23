/**
 * Stripe's published OpenAPI 3.0 description (spec3, test/contracts/published.ts) as a validator for the stand-in:
 * requests (method and path exist; query parameters are ones the operation declares, with the declared types, deepObject
 * ones such as created[gte] and types[] included) and answers (the body against the operation's 200 schema, every $ref
 * resolved). Ajv (already a dependency) does the JSON Schema work; OpenAPI's `nullable: true` is rewritten to
 * `anyOf [..., null]` first, and Stripe's `format: unix-time` is an integer of seconds.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { readPublishedJson, STRIPE_OPENAPI } from '../../contracts/published.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object at `keys` under `value`; throws when the description has no object there. */
function at(value: unknown, ...keys: string[]): Json {
  let current = value;
  for (const key of keys) current = isObject(current) ? current[key] : undefined;
  if (!isObject(current)) throw new Error(`the Stripe description has no object at ${keys.join(' → ')}`);
  return current;
}

/** OpenAPI 3.0's nullable as JSON Schema: `{…, nullable: true}` → `{anyOf: [{…}, {type: 'null'}]}`, everywhere. */
export function withoutNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNullable);
  if (!isObject(schema)) return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) if (key !== 'nullable') copy[key] = withoutNullable(value);
  if (schema.nullable !== true) return copy;
  const { description, ...rest } = copy;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: unknown;
}

export interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  parameters: Parameter[];
  operationId: string;
}

export interface StripeContract {
  /** The operation a request is for, or null when the spec has no such method and path. */
  operation(method: string, path: string): Operation | null;
  /** Problems of a request's query (nested as deepObject: created[gte] → created.gte; types[] → an array). */
  checkQuery(operation: Operation, query: URLSearchParams): string[];
  /** Problems of a 200 answer's body. */
  checkAnswer(operation: Operation, body: unknown): string[];
  /** Problems of one object against a component schema (charge, event, …): the stand-in's records are checked too. */
  checkComponent(name: string, value: unknown): string[];
}

/** created[gte]=1&types[]=a&types[]=b&expand[0]=x → {created: {gte: '1'}, types: ['a', 'b'], expand: ['x']}. */
export function nestQuery(query: URLSearchParams): Json {
  const result: Json = {};
  for (const [key, value] of query) {
    const match = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(key);
    if (match === null) {
      result[key] = value;
      continue;
    }
    const name = match[1] ?? key;
    const path = [...(match[2] ?? '').matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '');
    if (path.length === 0) result[name] = value;
    else if (path.length === 1 && (path[0] === '' || /^\d+$/.test(path[0] ?? ''))) {
      const existing: unknown = result[name];
      const list: unknown[] = Array.isArray(existing) ? existing.map((item: unknown) => item) : [];
      list.push(value);
      result[name] = list;
    } else {
      const inner = isObject(result[name]) ? result[name] : {};
      inner[path.join('.')] = value;
      result[name] = inner;
    }
  }
  return result;
}

let loaded: Promise<StripeContract> | null = null;

export function stripeContract(): Promise<StripeContract> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<StripeContract> {
  const raw = await readPublishedJson(STRIPE_OPENAPI);
  if (!isObject(raw) || !isObject(raw.paths) || !isObject(raw.components)) throw new Error('not an OpenAPI description');
  const spec = at(withoutNullable(raw));
  const paths = at(spec, 'paths');
  const unixTime = { type: 'number' as const, validate: (n: number) => Number.isInteger(n) && n >= 0 };
  const answers = new Ajv({ strict: false, allErrors: true, validateFormats: true, logger: false, formats: { 'unix-time': unixTime } });
  answers.addSchema({ $id: 'stripe', components: spec.components });
  const queries = new Ajv({ strict: false, allErrors: true, coerceTypes: 'array', logger: false, formats: { 'unix-time': unixTime } });
  queries.addSchema({ $id: 'stripe', components: spec.components });

  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || !['get', 'post', 'delete'].includes(method)) continue;
      const parameters = (Array.isArray(op.parameters) ? op.parameters : []).filter(isObject).map((p) => ({
        name: String(p.name),
        in: String(p.in),
        required: p.required === true,
        schema: p.schema,
      }));
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      operations.push({ method: method.toUpperCase(), template, pattern, parameters, operationId: String(op.operationId) });
    }
  }
  // Literal paths before templated ones: /v1/account before /v1/accounts/{account}.
  operations.sort((a, b) => Number(a.template.includes('{')) - Number(b.template.includes('{')));

  const rewrite = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"stripe#/components/'));
  const answerValidators = new Map<string, ValidateFunction>();
  const componentValidators = new Map<string, ValidateFunction>();
  const queryValidators = new Map<string, ValidateFunction>();
  const problems = (validate: ValidateFunction): string[] =>
    (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);

  return {
    operation(method, path) {
      return operations.find((op) => op.method === method && op.pattern.test(path)) ?? null;
    },
    checkQuery(operation, query) {
      const nested = nestQuery(query);
      const found: string[] = [];
      const declared = new Map(operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
      for (const [name, value] of Object.entries(nested)) {
        const parameter = declared.get(name);
        if (parameter === undefined) {
          found.push(`query parameter ${name} is not declared by ${operation.operationId}`);
          continue;
        }
        const key = `${operation.operationId}:${name}`;
        let validate = queryValidators.get(key);
        if (validate === undefined) {
          validate = queries.compile({ type: 'object', properties: { value: rewrite(parameter.schema) } });
          queryValidators.set(key, validate);
        }
        if (!validate({ value })) found.push(...problems(validate).map((p) => `${name}: ${p}`));
      }
      for (const parameter of declared.values()) if (parameter.required && !(parameter.name in nested)) found.push(`${parameter.name} is required`);
      return found;
    },
    checkAnswer(operation, body) {
      const key = `${operation.method} ${operation.template}`;
      let validate = answerValidators.get(key);
      if (validate === undefined) {
        const schema = at(paths, operation.template, operation.method.toLowerCase(), 'responses', '200', 'content', 'application/json', 'schema');
        validate = answers.compile(at(rewrite(schema)));
        answerValidators.set(key, validate);
      }
      return validate(body) ? [] : problems(validate);
    },
    checkComponent(name, value) {
      let validate = componentValidators.get(name);
      if (validate === undefined) {
        validate = answers.compile({ $ref: `stripe#/components/schemas/${name}` });
        componentValidators.set(name, validate);
      }
      return validate(value) ? [] : problems(validate);
    },
  };
}
