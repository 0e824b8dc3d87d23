/**
 * A platform's answers parsed against its published contract instead of cast. The schemas file is cut from the
 * contract along the connector's own types by the platform's script (scripts/gen-<platform>-contract.ts, on
 * scripts/contract-cut.ts), which checks those types against the contract: a value that passes here has the type the
 * connector declares for it.
 *
 * An answer that does not fit becomes a PlatformError naming the first failing path (`Invoices[3].LineItems[0].
 * LineAmount must be number`) before any mapping runs, instead of a TypeError or a wrong number deeper in mapping.
 * Its kind is `server`: it is the platform's answer that is wrong, and a later attempt may get a good one (a new kind
 * would have to be taught to every place that words kinds for people, src/link/messages.ts among them).
 *
 * Only the fields the connector reads are checked, with their JSON types and nesting, not enums, formats or
 * `required`: a platform may add a status or leave out an empty field without breaking a sync. One AJV instance per
 * platform; each validator is compiled on its first answer (start-up compiles nothing: docs/architecture.md,
 * "Start-up"), first error only (an answer that fails is refused whole, one path is enough to find it).
 * Cost: 0.12-0.14 µs a Xero bill of 3 lines in a page of 100 (`node bench/mapped-check.ts`), next to nothing beside
 * the call.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { PlatformError } from './errors.ts';

export interface SchemaRef {
  $ref: string;
}

interface SchemasFile {
  definitions: Record<string, object>;
}

const hasDefinitions = (value: unknown): value is SchemasFile =>
  typeof value === 'object' && value !== null && 'definitions' in value && typeof value.definitions === 'object' && value.definitions !== null;

/** The generated schemas file of a platform, with its entry points (`lists`, …) as the file declares them. */
export function loadSchemas<T extends SchemasFile>(file: URL, fits: (value: SchemasFile) => value is T): T {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!hasDefinitions(parsed) || !fits(parsed)) throw new Error(`${file.pathname} is not a contract schemas file: regenerate it`);
  return parsed;
}

const isSchemaRefs = (value: unknown): value is Record<string, SchemaRef> =>
  typeof value === 'object' &&
  value !== null &&
  Object.values(value).every((ref: unknown) => typeof ref === 'object' && ref !== null && '$ref' in ref && typeof ref.$ref === 'string');

/**
 * A platform's checks from its generated schemas file, whose entry points are the `$ref`s under `entriesKey`
 * (`entities`, `entries`, `answers`): what every platform's contract module would otherwise write again.
 */
export function contractFrom<Types extends object>(
  file: URL,
  entriesKey: string,
  options: { platform: string; code: string; regenerate: string },
): ContractCheck<Types> {
  const schemas = loadSchemas(file, (value): value is SchemasFile & Record<string, unknown> => entriesKey in value);
  const entries = schemas[entriesKey];
  if (!isSchemaRefs(entries)) throw new Error(`${file.pathname} has no entry points under ${entriesKey}: ${options.regenerate}`);
  return new ContractCheck<Types>({ ...options, definitions: schemas.definitions, entries });
}

/** `/3/LineItems/0/LineAmount` under Invoices → `Invoices[3].LineItems[0].LineAmount`. */
function pathOf(name: string, error: ErrorObject | undefined): string {
  if (error === undefined) return name;
  return error.instancePath
    .split('/')
    .slice(1)
    .reduce((path, step) => (/^[0-9]+$/.test(step) ? `${path}[${step}]` : `${path}.${step}`), name);
}

/**
 * The answer checks of one platform. `Types` maps each entry point of the schemas file (a list key, an entity name) to
 * the connector's type the script cut its schema along: the validator's yes is what makes a value that type.
 */
export class ContractCheck<Types extends object> {
  private readonly ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly documentId: string;
  private readonly platform: string;
  private readonly code: string;
  private readonly regenerate: string;
  private readonly entries: Readonly<Partial<Record<string, SchemaRef>>>;

  /**
   * `platform` names it in messages ("Xero"), `code` is the PlatformError's (XERO_CONTRACT), `regenerate` the script
   * to run, `entries` the schema of each entry point of `Types`.
   */
  constructor(options: {
    platform: string;
    code: string;
    regenerate: string;
    definitions: Record<string, object>;
    // By entry point of `Types`, or read from a schemas file (contractFrom), whose keys the script cut along `Types`.
    entries: Readonly<Partial<Record<keyof Types & string, SchemaRef>>> | Readonly<Record<string, SchemaRef>>;
  }) {
    this.platform = options.platform;
    this.code = options.code;
    this.regenerate = options.regenerate;
    this.entries = options.entries;
    this.documentId = `${options.code.toLowerCase()}-contract`;
    this.ajv.addSchema({ definitions: options.definitions }, this.documentId);
  }

  /** `value` is a list of `name`'s records; throws a PlatformError naming the first path that does not fit. */
  array<K extends keyof Types & string>(name: K, value: unknown, status: number): Types[K][] {
    const validate = this.compiled(name, true);
    if (this.fitsArray(name, value, validate)) return value;
    throw this.refusal(name, status, validate);
  }

  /** `value` is one record of `name`. */
  one<K extends keyof Types & string>(name: K, value: unknown, status: number): Types[K] {
    const validate = this.compiled(name, false);
    if (this.fitsOne(name, value, validate)) return value;
    throw this.refusal(name, status, validate);
  }

  /**
   * Records of an entry point named at run time, as plain objects (every entry point's schema is an object): for a
   * sync that stores them as the platform's data and maps them by a table keyed by name.
   */
  records(name: string, value: unknown, status: number): Record<string, unknown>[] {
    const validate = this.compiled(name, true);
    if (fitsRecords(value, validate)) return value;
    throw this.refusal(name, status, validate);
  }

  /** One record of an entry point named at run time (a write's answer), as a plain object. */
  record(name: string, value: unknown, status: number): Record<string, unknown> {
    const validate = this.compiled(name, false);
    if (fitsRecord(value, validate)) return value;
    throw this.refusal(name, status, validate);
  }

  private fitsArray<K extends keyof Types & string>(_name: K, value: unknown, validate: ValidateFunction): value is Types[K][] {
    return validate(value);
  }

  private fitsOne<K extends keyof Types & string>(_name: K, value: unknown, validate: ValidateFunction): value is Types[K] {
    return validate(value);
  }

  private compiled(name: string, list: boolean): ValidateFunction {
    const key = list ? `${name}[]` : name;
    let validate = this.validators.get(key);
    if (validate === undefined) {
      const ref = this.entries[name];
      if (ref === undefined) throw new Error(`no contract schema for ${this.platform}'s ${name}: run ${this.regenerate}`);
      const target = { $ref: `${this.documentId}${ref.$ref}` };
      validate = this.ajv.compile(list ? { type: 'array', items: target } : target);
      this.validators.set(key, validate);
    }
    return validate;
  }

  private refusal(name: string, status: number, validate: ValidateFunction): PlatformError {
    const error = validate.errors?.[0];
    return new PlatformError({
      kind: 'server',
      httpStatus: status,
      code: this.code,
      requestSent: true,
      message: `${this.platform}'s answer does not fit its published contract: ${pathOf(name, error)} ${error?.message ?? 'is not valid'}`,
    });
  }
}

/** Every entry point's schema is an object (scripts/contract-cut.ts): a list that passes is a list of objects. */
function fitsRecords(value: unknown, validate: ValidateFunction): value is Record<string, unknown>[] {
  return validate(value);
}

function fitsRecord(value: unknown, validate: ValidateFunction): value is Record<string, unknown> {
  return validate(value);
}
