/**
 * Issue 35's conformance check: every success answer a test app gives at API version 2024-08-31, for a route that
 * stands for one of the reference's operations (test/support/reference-operations.ts), is validated against the
 * reference's schema for that operation (test/contracts/reference/rutter-2024-08-31.json). A difference is named by
 * a key that does not depend on the data (`GET /accounting/invoices /invoices/*\/currency_code: type string`); the
 * known ones are listed, each with its reason, in test/contracts/reference/differences.json (summed up in
 * docs/reference.md), and any other fails the test that received the answer, as the contract check does.
 *
 * With REFERENCE_DIFFERENCES_OUT set to a file, every difference seen is appended to it instead, known or not, and
 * none fails: `scripts/reference-differences.ts` turns such a run into the list, keeping the reasons already written.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import type { ApiVersion } from '../../src/http/versioning.ts';
import type { ContractValidators } from './contract-validators.ts';
import { parsedBody } from './parsed-body.ts';
import { referenceFile, referenceOperationOf } from './reference-operations.ts';

export interface ReferenceObservation {
  method: string;
  route: string | undefined;
  version: ApiVersion | null;
  status: number;
  successStatus: number | undefined;
  contentType: string | undefined;
  body: string | null;
}

const DIFFERENCES = new URL('../contracts/reference/differences.json', import.meta.url);

/**
 * The reason of a difference no one has reasoned about yet: issue 35's backlog of shapes to bring to the reference's.
 * Every other reason says why we differ (the spec wins, or a decision of ours with its page).
 * reference-conformance.test.ts holds the backlog to a ceiling that only falls.
 */
export const UNREASONED = 'backlog: not yet as the reference has it (issue 35, shapes)';

let known: Readonly<Record<string, string>> | undefined;
export function knownDifferences(): Readonly<Record<string, string>> {
  known ??= JSON.parse(readFileSync(DIFFERENCES, 'utf8')) as Record<string, string>;
  return known;
}

/** Where an error is, without positions in arrays or the names of keyed entries (`/total/BILL` → `/total/{key}`). */
export function placeOf(instancePath: string): string {
  return instancePath.replace(/\/\d+(?=\/|$)/g, '/*').replace(/\/[A-Z][A-Z0-9_]*(?=\/|$)/g, '/{key}') || '/';
}

/** The value at a JSON pointer of the answer (`/orders/0/status`). */
function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const step of pointer.split('/').slice(1)) {
    const key = step.replaceAll('~1', '/').replaceAll('~0', '~');
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** A value as JSON, cut short (undefined, which JSON has no text for, as the word). */
function shown(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value).slice(0, 80);
}

/**
 * What an error says, without positions in arrays. A value outside an enum is named (enums are small sets), so that
 * listing one value lets no other through; other values stay out of the name.
 */
function differenceOf(error: ErrorObject, body: unknown): string {
  const where = placeOf(error.instancePath);
  const params: Record<string, unknown> = error.params;
  switch (error.keyword) {
    case 'required':
      return `${where}: missing ${String(params.missingProperty)}`;
    case 'additionalProperties':
      return `${where}: extra ${String(params.additionalProperty)}`;
    case 'type':
      return `${where}: type ${String(params.type)}`;
    case 'enum':
      return `${where}: enum ${shown(valueAt(body, error.instancePath))}`;
    default:
      return `${where}: ${error.keyword}`;
  }
}

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A write's answer schema is anyOf the object and the async response, whose properties are all optional: any object
 * passes the second branch. A synchronous answer (the operation's success status) is checked against the first alone.
 */
export function synchronousAnswer(response: object): object {
  if (!isSchema(response)) return response;
  const branches = Array.isArray(response.anyOf) ? response.anyOf.filter(isSchema) : [];
  const synchronous = branches.filter((branch) => !(isSchema(branch.properties) && 'async_response' in branch.properties));
  if (branches.length < 2 || synchronous.length !== 1 || synchronous[0] === undefined) return response;
  // The root's keywords but anyOf stay: $schema, and the definitions the branch's $refs point into.
  const { anyOf: _branches, ...root } = response;
  return { ...root, ...synchronous[0] };
}

/** The differences between an answer and the reference's schema for its operation, each once. */
export function referenceDifferences(observed: ReferenceObservation, validators: ContractValidators): string[] {
  const reference = referenceFile();
  if (observed.version !== reference.version || observed.route === undefined || observed.status !== observed.successStatus) return [];
  if (observed.body === null || !(observed.contentType ?? '').includes('json')) return [];
  const operation = referenceOperationOf(observed.method, observed.route);
  if (operation?.response === undefined) return [];
  const validate = validators.validatorOf(synchronousAnswer(operation.response));
  const parsed = parsedBody(observed);
  if (parsed === null || validate(parsed.value)) return [];
  const body = parsed.value;
  // The connection every answer carries is one object, whatever the operation: its differences are named once.
  const prefixOf = (error: ErrorObject): string =>
    error.instancePath.startsWith('/connection/') || error.instancePath === '/connection'
      ? 'every answer '
      : `${operation.method} ${operation.path} `;
  return [...new Set((validate.errors ?? []).map((error) => prefixOf(error) + differenceOf(error, body)))];
}

const seen = new Set<string>();

/** The differences the known list does not explain (none while a run records them). */
export function unexplainedDifferences(observed: ReferenceObservation, validators: ContractValidators): string[] {
  const differences = referenceDifferences(observed, validators);
  const record = process.env.REFERENCE_DIFFERENCES_OUT;
  if (record !== undefined && record !== '') {
    const fresh = differences.filter((difference) => !seen.has(difference));
    for (const difference of fresh) seen.add(difference);
    if (fresh.length > 0) appendFileSync(record, fresh.map((difference) => `${difference}\n`).join(''));
    return [];
  }
  const explained = knownDifferences();
  const version = referenceFile().version;
  return differences.filter((difference) => explained[difference] === undefined).map((difference) => `reference ${version}: ${difference}`);
}
