/**
 * A platform's contract as a file of JSON Schema definitions generated from what the platform publishes (QuickBooks
 * Online's XML Schema: scripts/gen-quickbooks-standin-contract.ts), for a stand-in to check request bodies and its own
 * answers against: a value against one named definition, each problem worded with its path
 * (`Bill.Line[0].Amount must be number`, `Bill.Line[0] has Foo, which the contract does not have`).
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `/Line/0/Amount` under `Bill` → `Bill.Line[0].Amount`. */
export function dottedPath(root: string, pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .reduce((path, step) => (/^[0-9]+$/.test(step) ? `${path}[${step}]` : `${path}.${step}`), root);
}

function worded(root: string, error: ErrorObject): string {
  const path = dottedPath(root, error.instancePath);
  const extra: unknown = error.params.additionalProperty;
  return typeof extra === 'string' ? `${path} has ${extra}, which the contract does not have` : `${path} ${error.message ?? 'is invalid'}`;
}

export class JsonSchemaContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly maxProblems: number;

  /** `file` holds `{ definitions: { Name: schema, … } }`; references inside are `#/definitions/…`. */
  constructor(file: URL, maxProblems = 5) {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isObject(parsed) || !isObject(parsed.definitions)) throw new Error(`${file.pathname} has no definitions`);
    this.ajv.addSchema({ definitions: parsed.definitions }, 'contract');
    this.maxProblems = maxProblems;
  }

  /** Problems of `value` against the definition `name` (none: it fits), paths under `root`. */
  problems(name: string, value: unknown, root = name): string[] {
    let validate = this.compiled.get(name);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `contract#/definitions/${name}` });
      this.compiled.set(name, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).slice(0, this.maxProblems).map((error) => worded(root, error));
  }
}
