/**
 * Xero's published OpenAPI 3.0 contracts (test/contracts/xero) as a validator:
 * finds the operation of a request, checks its parameters (path, query,
 * headers: required, typed, none unknown in the query) and its JSON body
 * against the operation's request schema, and an answer against the response
 * schema of its status. OpenAPI's `nullable` becomes a JSON Schema null type.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema?: Json;
}

export interface Operation {
  api: 'accounting' | 'identity';
  method: string;
  template: string;
  id: string;
  parameters: Parameter[];
  body: { required: boolean; contentTypes: string[]; schema: Json | null } | null;
  /** Response schemas of JSON answers by status; null: declared without a JSON schema. */
  responses: Record<string, Json | null>;
  /** Media types of the success answers (what an Accept header may ask for). */
  produces: string[];
  pattern: RegExp;
  pathNames: string[];
}

export interface RequestParts {
  pathParams: Record<string, string>;
  query: URLSearchParams;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  contentType: string | null;
  /** The parsed JSON body; undefined when none was sent. */
  body: unknown;
}

const CONTRACTS = new URL('../../contracts/xero/', import.meta.url);

function load(file: string): Json {
  return JSON.parse(readFileSync(new URL(file, CONTRACTS), 'utf8')) as Json;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const LOCATIONS = new Set(['path', 'query', 'header', 'cookie']);

function toParameter(json: Json): Parameter {
  const location = typeof json.in === 'string' && LOCATIONS.has(json.in) ? (json.in as Parameter['in']) : 'query';
  return {
    name: typeof json.name === 'string' ? json.name : '',
    in: location,
    required: json.required === true,
    ...(isObject(json.schema) ? { schema: json.schema } : {}),
  };
}

/** OpenAPI 3.0 → JSON Schema: `nullable: true` admits null (and null in an enum). */
export function convertNullable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convertNullable);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) out[key] = convertNullable(inner);
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
    if (out.type === undefined && (out.$ref !== undefined || out.allOf !== undefined || out.oneOf !== undefined)) {
      const { $ref, ...rest } = out;
      return { anyOf: [$ref === undefined ? rest : { $ref }, { type: 'null' }] };
    }
  }
  return out;
}

/** Local `#/components/...` refs point into the named document registered with Ajv. */
function qualify(value: unknown, api: string): unknown {
  if (Array.isArray(value)) return value.map((v) => qualify(v, api));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith('#/') ? `${api}${inner}` : qualify(inner, api);
  }
  return out;
}

export class XeroContract {
  readonly operations: Operation[] = [];
  private readonly ajv: Ajv;
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly components = new Map<string, ValidateFunction>();
  private readonly documents: Record<string, Json>;

  constructor() {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    // ajv-formats is CommonJS: under ESM its plugin is the default's `default` (as in src/http/validation.ts).
    ajvFormats.default(this.ajv);
    // Formats the contracts name that JSON Schema does not define: number kinds, checked by `type`.
    for (const name of ['integer', 'int', 'openapi']) this.ajv.addFormat(name, true);
    this.documents = { accounting: load('xero_accounting.json'), identity: load('xero-identity.json') };
    for (const [api, document] of Object.entries(this.documents) as ['accounting' | 'identity', Json][]) {
      this.ajv.addSchema({ components: convertNullable(document.components ?? {}) }, api);
      for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) this.index(api, template, item);
    }
    // Literal segments win over parameters (/Reports/BalanceSheet over /Reports/{ReportID}).
    this.operations.sort((a, b) => a.pathNames.length - b.pathNames.length);
  }

  private resolve(api: string, value: unknown): Json {
    let current = value;
    for (let depth = 0; isObject(current) && typeof current.$ref === 'string' && depth < 5; depth++) {
      const path = current.$ref.replace(/^#\//, '').split('/');
      current = path.reduce<unknown>((node, step) => (isObject(node) ? node[step] : undefined), this.documents[api]);
    }
    return isObject(current) ? current : {};
  }

  private index(api: 'accounting' | 'identity', template: string, item: Json): void {
    const shared: unknown[] = Array.isArray(item.parameters) ? item.parameters : [];
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method) || !isObject(raw)) continue;
      const own: unknown[] = Array.isArray(raw.parameters) ? raw.parameters : [];
      const parameters = [...shared, ...own].map((p) => toParameter(this.resolve(api, p)));
      const requestBody = raw.requestBody === undefined ? null : this.resolve(api, raw.requestBody);
      const content = isObject(requestBody?.content) ? requestBody.content : {};
      const json = isObject(content['application/json']) ? content['application/json'] : null;
      const responses: Record<string, Json | null> = {};
      const produces = new Set<string>();
      for (const [status, response] of Object.entries(isObject(raw.responses) ? raw.responses : {})) {
        const resolved = this.resolve(api, response);
        if (status.startsWith('2') && isObject(resolved.content)) for (const type of Object.keys(resolved.content)) produces.add(type);
        const body = isObject(resolved.content) && isObject(resolved.content['application/json']) ? resolved.content['application/json'] : null;
        responses[status] = body !== null && isObject(body.schema) ? body.schema : null;
      }
      const pathNames: string[] = [];
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
        pathNames.push(name);
        return '([^/]+)';
      });
      this.operations.push({
        api,
        method: method.toUpperCase(),
        template,
        id: typeof raw.operationId === 'string' ? raw.operationId : `${method} ${template}`,
        parameters,
        body:
          requestBody === null
            ? null
            : {
                required: requestBody.required === true,
                contentTypes: Object.keys(content),
                schema: json !== null && isObject(json.schema) ? json.schema : null,
              },
        responses,
        produces: [...produces],
        pattern: new RegExp(`^${source}$`, api === 'identity' ? 'i' : ''),
        pathNames,
      });
    }
  }

  /** The operation a request names, preferring one whose path parameters are valid (ContactID vs ContactNumber). */
  find(api: 'accounting' | 'identity', method: string, path: string): { operation: Operation; pathParams: Record<string, string> } | null {
    let fallback: { operation: Operation; pathParams: Record<string, string> } | null = null;
    for (const operation of this.operations) {
      if (operation.api !== api || operation.method !== method) continue;
      const match = operation.pattern.exec(path);
      if (match === null) continue;
      const pathParams = Object.fromEntries(operation.pathNames.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
      const candidate = { operation, pathParams };
      const paramsOk = operation.parameters
        .filter((p) => p.in === 'path')
        .every((p) => this.check(operation.api, p.schema, pathParams[p.name] ?? '').length === 0);
      if (paramsOk) return candidate;
      fallback ??= candidate;
    }
    return fallback;
  }

  /** Whether the contract has the path at all (for another method: 405-style violations). */
  knowsPath(api: 'accounting' | 'identity', path: string): boolean {
    return this.operations.some((o) => o.api === api && o.pattern.test(path));
  }

  private validator(api: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      validate = this.ajv.compile(qualify(convertNullable(schema), api) as Json);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  private errorsOf(validate: ValidateFunction, where: string): string[] {
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${where}${e.instancePath} ${e.message ?? 'is invalid'}${e.params.additionalProperty === undefined ? '' : ` (${String(e.params.additionalProperty)})`}`,
      );
  }

  /** A parameter's text checked against its schema (numbers, booleans, arrays as comma-separated lists). */
  private check(api: string, schema: Json | undefined, text: string, where = 'value'): string[] {
    if (schema === undefined) return [];
    let value: unknown = text;
    const type = schema.type;
    if (type === 'integer' || type === 'number') value = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    else if (type === 'boolean') value = text === 'true' ? true : text === 'false' ? false : text;
    else if (type === 'array') value = text.split(',').map((part) => part.trim().replace(/^"(.*)"$/, '$1'));
    const validate = this.validator(api, schema);
    return validate(value) ? [] : this.errorsOf(validate, where);
  }

  validateRequest(operation: Operation, request: RequestParts): string[] {
    const problems: string[] = [];
    const declared = new Set<string>();
    for (const parameter of operation.parameters) {
      const where = `${parameter.in} parameter ${parameter.name}`;
      const value =
        parameter.in === 'path'
          ? request.pathParams[parameter.name]
          : parameter.in === 'query'
            ? (request.query.get(parameter.name) ?? undefined)
            : parameter.in === 'header'
              ? request.headers[parameter.name.toLowerCase()]
              : undefined;
      if (parameter.in === 'query') declared.add(parameter.name);
      if (value === undefined || value === '') {
        if (parameter.required) problems.push(`${where} is required`);
        continue;
      }
      problems.push(...this.check(operation.api, parameter.schema, value, where));
    }
    for (const name of new Set(request.query.keys())) {
      if (!declared.has(name)) problems.push(`query parameter ${name} is not in the contract of ${operation.method} ${operation.template}`);
    }
    const accept = request.headers.accept;
    if (accept !== undefined && !acceptable(accept, operation.produces)) {
      problems.push(`accept ${accept} asks for none of ${operation.produces.join(', ')} (a mock server answers 406)`);
    }
    const body = operation.body;
    if (body === null) {
      if (request.body !== undefined) problems.push(`${operation.method} ${operation.template} takes no body`);
      return problems;
    }
    if (request.body === undefined) {
      if (body.required) problems.push('the request body is required');
      return problems;
    }
    const type = (request.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!body.contentTypes.includes(type)) problems.push(`content-type ${type || '(none)'} is not one of ${body.contentTypes.join(', ')}`);
    if (type === 'application/json' && body.schema !== null) {
      const validate = this.validator(operation.api, body.schema);
      if (!validate(request.body)) problems.push(...this.errorsOf(validate, 'body'));
    }
    return problems;
  }

  /** Problems of a value against one of a contract's component schemas (token answers, which no path declares). */
  validateComponent(api: 'accounting' | 'identity', name: string, value: unknown): string[] {
    const key = `${api}:${name}`;
    let validate = this.components.get(key);
    if (validate === undefined) {
      validate = this.validator(api, { $ref: `#/components/schemas/${name}` });
      this.components.set(key, validate);
    }
    return validate(value) ? [] : this.errorsOf(validate, name);
  }

  /** Problems of an answer; statuses the contract does not describe (401, 429, 5xx) are not checked. */
  validateResponse(operation: Operation, status: number, body: unknown): string[] {
    const schema = operation.responses[String(status)];
    if (schema === undefined || schema === null) return [];
    const validate = this.validator(operation.api, schema);
    return validate(body) ? [] : this.errorsOf(validate, `response ${status}`);
  }
}

/** Whether an Accept header admits one of the media types an operation answers with (none declared: anything goes). */
function acceptable(accept: string, produces: readonly string[]): boolean {
  if (produces.length === 0) return true;
  return accept.split(',').some((part) => {
    const range = (part.split(';')[0] ?? '').trim().toLowerCase();
    if (range === '*/*' || range === '') return true;
    if (range.endsWith('/*')) return produces.some((type) => type.startsWith(range.slice(0, -1)));
    return produces.includes(range);
  });
}

let shared: XeroContract | null = null;

/** One parsed contract per process: compiling schemas is the slow part. */
export function xeroContract(): XeroContract {
  shared ??= new XeroContract();
  return shared;
}
