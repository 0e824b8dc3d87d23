/**
 * A platform's published OpenAPI 3.0 description(s) as the stand-in's validator (Ajv does the JSON Schema work):
 * finds the operation of a request, checks its parameters (path, query, headers: required, typed, none unknown in the
 * query; form arrays split on commas, deepObject ones such as created[gte] and types[] nested), its Accept header and
 * its JSON body against the operation's request schema, and an answer against the response schema of its status.
 * OpenAPI's `nullable` becomes a JSON Schema null type. Several documents may be loaded under names (Xero's accounting
 * and identity APIs); their local `#/components/…` references resolve inside their own document.
 */
import { Ajv, type Format, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { RequestParts, StandInContract } from './host.ts';

type Json = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  style?: string;
  explode?: boolean;
  schema?: Json;
}

export interface Operation<A extends string = string> {
  api: A;
  method: string;
  template: string;
  id: string;
  parameters: Parameter[];
  body: { required: boolean; contentTypes: string[]; schema: Json | null } | null;
  /** Response schemas of JSON answers by status; null: declared without a JSON schema. */
  responses: Record<string, Json | null>;
  /** Media types of the success answers (what an Accept header may ask for). */
  produces: string[];
  /** Matches the path the request is sent to: the template, or the operation's `x-path` where the description has one. */
  pattern: RegExp;
  pathNames: string[];
}

export type { RequestParts } from './host.ts';

export interface ContractOptions<A extends string> {
  /** Formats the description names beyond JSON Schema's (Stripe's unix-time); `true` accepts any value. */
  formats?: Record<string, Format>;
  /** APIs whose paths match whatever their case (Xero's identity: /connections and /Connections). */
  caseInsensitive?: readonly A[];
  /** How many problems of one value to report. */
  maxProblems?: number;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const LOCATIONS = new Set(['path', 'query', 'header', 'cookie']);
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

function toParameter(json: Json): Parameter {
  const location = typeof json.in === 'string' && LOCATIONS.has(json.in) ? (json.in as Parameter['in']) : 'query';
  return {
    name: typeof json.name === 'string' ? json.name : '',
    in: location,
    required: json.required === true,
    ...(typeof json.style === 'string' ? { style: json.style } : {}),
    ...(typeof json.explode === 'boolean' ? { explode: json.explode } : {}),
    ...(isObject(json.schema) ? { schema: json.schema } : {}),
  };
}

/** OpenAPI 3.0 → JSON Schema: `nullable: true` admits null (and null in an enum); a composed schema becomes anyOf [it, null]. */
export function convertNullable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convertNullable);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) out[key] = convertNullable(inner);
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
    if (out.type === undefined && ['$ref', 'allOf', 'oneOf', 'anyOf'].some((key) => out[key] !== undefined)) {
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

/** created[gte]=1&types[]=a&types[]=b&expand[0]=x → {created: {gte: '1'}, types: ['a', 'b'], expand: ['x']}; plain names stay text. */
export function nestQuery(query: URLSearchParams): Json {
  const result: Json = {};
  for (const [key, value] of query) {
    const match = /^([^[\]]+)((?:\[[^\]]*\])+)$/.exec(key);
    if (match === null) {
      result[key] = value;
      continue;
    }
    const name = match[1] ?? key;
    const path = [...(match[2] ?? '').matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '');
    const existing = result[name];
    if (path.length === 1 && (path[0] === '' || /^\d+$/.test(path[0] ?? ''))) {
      const list: unknown[] = Array.isArray(existing) ? existing.map((item: unknown) => item) : [];
      result[name] = [...list, value];
    } else {
      const inner = isObject(existing) ? existing : {};
      inner[path.join('.')] = value;
      result[name] = inner;
    }
  }
  return result;
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

export class OpenApiContract<A extends string> {
  readonly operations: Operation<A>[] = [];
  /** Bodies and answers: checked as they are. */
  private readonly values: Ajv;
  /** Parameters: text coerced to the declared types first (page=2 is an integer). */
  private readonly texts: Ajv;
  private readonly compiled = new WeakMap<object, { value?: ValidateFunction; text?: ValidateFunction }>();
  private readonly components = new Map<string, ValidateFunction>();
  private readonly documents: Record<A, Json>;
  private readonly maxProblems: number;

  constructor(documents: Record<A, Json>, options: ContractOptions<A> = {}) {
    this.documents = documents;
    this.maxProblems = options.maxProblems ?? 5;
    const formats: Record<string, Format> = { integer: true, int: true, openapi: true, ...options.formats };
    this.values = new Ajv({ strict: false, allErrors: true, validateFormats: true, logger: false, formats });
    this.texts = new Ajv({ strict: false, allErrors: true, validateFormats: true, logger: false, coerceTypes: 'array', formats });
    for (const ajv of [this.values, this.texts]) {
      // ajv-formats is CommonJS: under ESM its plugin is the default's `default` (as in src/http/validation.ts).
      ajvFormats.default(ajv);
      for (const [api, document] of Object.entries(documents) as [A, Json][])
        ajv.addSchema({ components: convertNullable(document.components ?? {}) }, api);
    }
    const insensitive = new Set<string>(options.caseInsensitive ?? []);
    for (const [api, document] of Object.entries(documents) as [A, Json][]) {
      const paths = isObject(document.paths) ? document.paths : {};
      for (const [template, item] of Object.entries(paths)) if (isObject(item)) this.index(api, template, item, insensitive.has(api));
    }
    // Literal segments win over parameters (/Reports/BalanceSheet over /Reports/{ReportID}, /v1/account over /v1/accounts/{account}).
    this.operations.sort((a, b) => a.pathNames.length - b.pathNames.length);
  }

  private resolve(api: A, value: unknown): Json {
    let current = value;
    for (let depth = 0; isObject(current) && typeof current.$ref === 'string' && depth < 5; depth++) {
      const path = current.$ref.replace(/^#\//, '').split('/');
      current = path.reduce<unknown>((node, step) => (isObject(node) ? node[step] : undefined), this.documents[api]);
    }
    return isObject(current) ? current : {};
  }

  private index(api: A, template: string, item: Json, caseInsensitive: boolean): void {
    const shared: unknown[] = Array.isArray(item.parameters) ? item.parameters : [];
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.has(method) || !isObject(raw)) continue;
      const own: unknown[] = Array.isArray(raw.parameters) ? raw.parameters : [];
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
      // Xero's SDK-made description lists a second representation of a resource under its own key with `x-path`, the
      // path it is really sent to (getInvoiceAsPdf: /Invoices/{InvoiceID}/pdf is GET /Invoices/{InvoiceID} with
      // Accept: application/pdf); find() tells them apart by Accept.
      const sentTo = typeof raw['x-path'] === 'string' ? raw['x-path'] : template;
      const source = sentTo.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
        pathNames.push(name);
        return '([^/]+)';
      });
      this.operations.push({
        api,
        method: method.toUpperCase(),
        template,
        id: typeof raw.operationId === 'string' ? raw.operationId : `${method} ${template}`,
        parameters: [...shared, ...own].map((p) => toParameter(this.resolve(api, p))),
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
        pattern: new RegExp(`^${source}$`, caseInsensitive ? 'i' : ''),
        pathNames,
      });
    }
  }

  /**
   * The operation a request names, preferring one whose path parameters are valid (ContactID vs ContactNumber), then
   * one whose answers the Accept header admits (an invoice as JSON or as a PDF): the first such, in path order.
   */
  find(api: A, method: string, path: string, accept?: string): { operation: Operation<A>; pathParams: Record<string, string> } | null {
    const ranked: { rank: number; found: { operation: Operation<A>; pathParams: Record<string, string> } }[] = [];
    for (const operation of this.operations) {
      if (operation.api !== api || operation.method !== method) continue;
      const match = operation.pattern.exec(path);
      if (match === null) continue;
      const pathParams = Object.fromEntries(operation.pathNames.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
      const paramsOk = operation.parameters
        .filter((p) => p.in === 'path')
        .every((p) => this.checkParameter(operation.api, p, pathParams[p.name] ?? '', '').length === 0);
      const accepted = accept === undefined || acceptable(accept, operation.produces);
      ranked.push({ rank: (paramsOk ? 0 : 2) + (accepted ? 0 : 1), found: { operation, pathParams } });
    }
    return ranked.reduce<(typeof ranked)[number] | null>((best, next) => (best === null || next.rank < best.rank ? next : best), null)?.found ?? null;
  }

  /** Whether the contract has the path at all (for another method: 405-style violations). */
  knowsPath(api: A, path: string): boolean {
    return this.operations.some((o) => o.api === api && o.pattern.test(path));
  }

  private validator(ajv: 'value' | 'text', api: A, schema: Json): ValidateFunction {
    const cached = this.compiled.get(schema) ?? {};
    let validate = cached[ajv];
    if (validate === undefined) {
      const qualified = qualify(convertNullable(schema), api) as Json;
      validate = ajv === 'value' ? this.values.compile(qualified) : this.texts.compile({ type: 'object', properties: { value: qualified } });
      cached[ajv] = validate;
      this.compiled.set(schema, cached);
    }
    return validate;
  }

  private errorsOf(validate: ValidateFunction, where: string, strip = ''): string[] {
    return (validate.errors ?? []).slice(0, this.maxProblems).map((e) => {
      const path = e.instancePath.startsWith(strip) ? e.instancePath.slice(strip.length) : e.instancePath;
      const extra = e.params.additionalProperty === undefined ? '' : ` (${String(e.params.additionalProperty)})`;
      return `${where}${path} ${e.message ?? 'is invalid'}${extra}`;
    });
  }

  /** A parameter's value (text, or nested for deepObject) checked against its schema; form arrays are comma-separated. */
  private checkParameter(api: A, parameter: Parameter, value: unknown, where: string): string[] {
    const schema = parameter.schema;
    if (schema === undefined) return [];
    let given = value;
    const splits = schema.type === 'array' && parameter.explode !== true && (parameter.style ?? 'form') === 'form';
    if (splits && typeof value === 'string') given = value.split(',').map((part) => part.trim().replace(/^"(.*)"$/, '$1'));
    const validate = this.validator('text', api, schema);
    return validate({ value: given }) ? [] : this.errorsOf(validate, where, '/value');
  }

  /** Problems of a request's path, query and header parameters (required, typed, none unknown in the query), or of those in `locations`. */
  validateParameters(
    operation: Operation<A>,
    request: Pick<RequestParts, 'pathParams' | 'query' | 'headers'>,
    locations: readonly Parameter['in'][] = ['path', 'query', 'header'],
  ): string[] {
    const problems: string[] = [];
    const query = nestQuery(request.query);
    const declared = new Set<string>();
    for (const parameter of operation.parameters) {
      if (!locations.includes(parameter.in)) continue;
      const where = `${parameter.in} parameter ${parameter.name}`;
      const value: unknown =
        parameter.in === 'path'
          ? request.pathParams[parameter.name]
          : parameter.in === 'query'
            ? query[parameter.name]
            : parameter.in === 'header'
              ? request.headers[parameter.name.toLowerCase()]
              : undefined;
      if (parameter.in === 'query') declared.add(parameter.name);
      if (value === undefined || value === '') {
        if (parameter.required) problems.push(`${where} is required`);
        continue;
      }
      problems.push(...this.checkParameter(operation.api, parameter, value, where));
    }
    for (const name of locations.includes('query') ? Object.keys(query) : []) {
      if (!declared.has(name)) problems.push(`query parameter ${name} is not in the contract of ${operation.method} ${operation.template}`);
    }
    return problems;
  }

  /** Problems of a whole request: parameters, Accept, and the body against the request schema. */
  validateRequest(operation: Operation<A>, request: RequestParts): string[] {
    const problems = this.validateParameters(operation, request);
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
    // A form's fields are text: checked by the schema with its types read from the text, as parameters are.
    const form = type === 'application/x-www-form-urlencoded';
    if ((type === 'application/json' || form) && body.schema !== null) {
      const validate = this.validator(form ? 'text' : 'value', operation.api, body.schema);
      if (!validate(request.body)) problems.push(...this.errorsOf(validate, 'body'));
    }
    return problems;
  }

  /** Problems of a value against one of a document's component schemas (records, token answers no path declares). */
  validateComponent(api: A, name: string, value: unknown): string[] {
    const key = `${api}:${name}`;
    let validate = this.components.get(key);
    if (validate === undefined) {
      validate = this.values.compile({ $ref: `${api}#/components/schemas/${name}` });
      this.components.set(key, validate);
    }
    return validate(value) ? [] : this.errorsOf(validate, name);
  }

  /** Problems of an answer; statuses the contract does not describe (401, 429, 5xx) are not checked. */
  validateResponse(operation: Operation<A>, status: number, body: unknown): string[] {
    const schema = operation.responses[String(status)];
    if (schema === undefined || schema === null) return [];
    const validate = this.validator('value', operation.api, schema);
    return validate(body) ? [] : this.errorsOf(validate, `response ${status}`);
  }
}

/** The contract as the stand-in host's (./host.ts): a request routed to a document and path; handlers named by operationId or `GET /Invoices/{InvoiceID}`. */
export function openApiOperations<A extends string>(contract: OpenApiContract<A>): StandInContract<{ api: A; path: string }, Operation<A>> {
  return {
    find: (target, method, accept) => contract.find(target.api, method, target.path, accept),
    names: (operation) => [operation.id, `${operation.method} ${operation.template}`],
    requestProblems: (operation, request) => contract.validateRequest(operation, request),
    answerProblems: (operation, status, body) => contract.validateResponse(operation, status, body),
  };
}
