/**
 * For the tests: Stripe's published OpenAPI 3.0 description (spec3, test/contracts/published.ts) as a checker of the
 * simulator's answers. A small validator of the subset the description uses for the objects served: $ref, anyOf /
 * oneOf, nullable, type, properties, required, enum, items, additionalProperties, maxLength and pattern
 * (`format: unix-time` is an integer of seconds). It is stricter than the description in one way: a property an object
 * schema with `properties` does not declare is a problem, so the simulator invents no fields (a bare `type: object`,
 * such as an event's data.object, stays free-form). A keyword outside the subset is reported
 * too, so a schema the validator cannot read never passes unread.
 */
import { readPublishedJson, STRIPE_OPENAPI } from './published.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords that only annotate: no bearing on validity. */
const ANNOTATIONS = new Set(['description', 'title', 'format', 'example', 'deprecated']);
const HANDLED = new Set([
  '$ref',
  'anyOf',
  'oneOf',
  'nullable',
  'type',
  'properties',
  'required',
  'enum',
  'items',
  'additionalProperties',
  'maxLength',
  'pattern',
]);

export interface StripeOpenApi {
  /** Problems of a value against components.schemas.<name>. */
  component(name: string, value: unknown): string[];
  /** Problems of a 200 answer of GET <path template> (e.g. /v1/charges, /v1/charges/{charge}). */
  answer(pathTemplate: string, body: unknown): string[];
  /** Query parameters the GET operation declares. */
  parameters(pathTemplate: string): string[];
}

export class SchemaWalker {
  private readonly spec: Json;

  constructor(spec: Json) {
    this.spec = spec;
  }

  resolve(ref: string): unknown {
    if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref}`);
    let node: unknown = this.spec;
    for (const part of ref.slice(2).split('/')) node = isObject(node) ? node[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
    return node;
  }

  /** Problems of `value` against `schema`, each prefixed by its path in the value. */
  check(schema: unknown, value: unknown, path = '$'): string[] {
    if (!isObject(schema)) return [`${path}: schema is not an object`];
    const unknown = Object.keys(schema).filter((k) => !HANDLED.has(k) && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
    if (unknown.length > 0) return [`${path}: schema keyword(s) ${unknown.join(', ')} not supported by the checker`];
    if (value === null) return schema.nullable === true ? [] : [`${path}: is null, not nullable`];
    if (typeof schema.$ref === 'string') return this.check(this.resolve(schema.$ref), value, path);
    const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
    if (branches !== null) {
      const results = branches.map((b) => this.check(b, value, path));
      if (results.some((r) => r.length === 0)) return [];
      // The closest branch's problems: the one with the fewest.
      const best = results.reduce((a, b) => (b.length < a.length ? b : a));
      return [`${path}: matches no anyOf branch; nearest: ${best.slice(0, 3).join('; ')}`];
    }
    const problems: string[] = [];
    const type = schema.type;
    if (typeof type === 'string') {
      const ok =
        type === 'integer'
          ? typeof value === 'number' && Number.isInteger(value)
          : type === 'number'
            ? typeof value === 'number' && Number.isFinite(value)
            : type === 'array'
              ? Array.isArray(value)
              : type === 'object'
                ? isObject(value)
                : typeof value === type;
      if (!ok) return [`${path}: ${JSON.stringify(value)} is not ${type}`];
    }
    if (schema.format === 'unix-time' && !(typeof value === 'number' && Number.isInteger(value) && value >= 0))
      problems.push(`${path}: not unix seconds`);
    if (Array.isArray(schema.enum) && !schema.enum.includes(value))
      problems.push(`${path}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`);
    if (typeof value === 'string') {
      if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) problems.push(`${path}: longer than ${schema.maxLength}`);
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
        problems.push(`${path}: does not match ${schema.pattern}`);
    }
    if (Array.isArray(value) && schema.items !== undefined)
      value.forEach((item, i) => problems.push(...this.check(schema.items, item, `${path}[${i}]`)));
    if (isObject(value)) {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
      for (const name of required) if (!(name in value)) problems.push(`${path}.${name}: required, missing`);
      for (const [name, item] of Object.entries(value)) {
        if (name in properties) problems.push(...this.check(properties[name], item, `${path}.${name}`));
        else if (isObject(schema.additionalProperties)) problems.push(...this.check(schema.additionalProperties, item, `${path}.${name}`));
        else if (schema.additionalProperties !== true && isObject(schema.properties)) problems.push(`${path}.${name}: not declared by the schema`);
      }
    }
    return problems;
  }
}

let loaded: Promise<StripeOpenApi> | null = null;

export function stripeOpenApi(): Promise<StripeOpenApi> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<StripeOpenApi> {
  const spec = await readPublishedJson(STRIPE_OPENAPI);
  if (!isObject(spec) || !isObject(spec.paths) || !isObject(spec.components)) throw new Error("Stripe's OpenAPI description did not load");
  const paths = spec.paths;
  const walker = new SchemaWalker(spec);
  const get = (template: string): Json => {
    const item = paths[template];
    if (!isObject(item) || !isObject(item.get)) throw new Error(`GET ${template} is not in Stripe's OpenAPI description`);
    return item.get;
  };
  return {
    component: (name, value) => walker.check({ $ref: `#/components/schemas/${name}` }, value),
    answer(template, body) {
      const responses = get(template).responses;
      const ok = isObject(responses) ? responses['200'] : undefined;
      const content = isObject(ok) && isObject(ok.content) ? ok.content['application/json'] : undefined;
      if (!isObject(content)) throw new Error(`GET ${template} has no JSON 200 answer`);
      return walker.check(content.schema, body);
    },
    parameters(template) {
      const parameters = get(template).parameters;
      return (Array.isArray(parameters) ? parameters : []).filter(isObject).map((p) => String(p.name));
    },
  };
}
