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
import { LATEST_VERSION, type ApiVersion } from '../../src/http/versioning.ts';
import type { ContractValidators } from './contract-validators.ts';
import { referenceOperationOf } from './reference-operations.ts';

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

let known: Readonly<Record<string, string>> | undefined;
export function knownDifferences(): Readonly<Record<string, string>> {
  known ??= JSON.parse(readFileSync(DIFFERENCES, 'utf8')) as Record<string, string>;
  return known;
}

/** Where an error is, without positions in arrays or the names of keyed entries (`/total/BILL` → `/total/{key}`). */
export function placeOf(instancePath: string): string {
  return instancePath.replace(/\/\d+(?=\/|$)/g, '/*').replace(/\/[A-Z][A-Z0-9_]*(?=\/|$)/g, '/{key}') || '/';
}

/** What an error says, without the data's values or positions. */
function differenceOf(error: ErrorObject): string {
  const where = placeOf(error.instancePath);
  const params: Record<string, unknown> = error.params;
  switch (error.keyword) {
    case 'required':
      return `${where}: missing ${String(params.missingProperty)}`;
    case 'additionalProperties':
      return `${where}: extra ${String(params.additionalProperty)}`;
    case 'type':
      return `${where}: type ${String(params.type)}`;
    default:
      return `${where}: ${error.keyword}`;
  }
}

/** The differences between an answer and the reference's schema for its operation, each once. */
export function referenceDifferences(observed: ReferenceObservation, validators: ContractValidators): string[] {
  if (observed.version !== LATEST_VERSION || observed.route === undefined || observed.status !== observed.successStatus) return [];
  if (observed.body === null || !(observed.contentType ?? '').includes('json')) return [];
  const operation = referenceOperationOf(observed.method, observed.route);
  if (operation?.response === undefined) return [];
  const validate = validators.validatorOf(operation.response);
  if (validate(JSON.parse(observed.body))) return [];
  // The connection every answer carries is one object, whatever the operation: its differences are named once.
  const prefixOf = (error: ErrorObject): string =>
    error.instancePath.startsWith('/connection/') || error.instancePath === '/connection'
      ? 'every answer '
      : `${operation.method} ${operation.path} `;
  return [...new Set((validate.errors ?? []).map((error) => prefixOf(error) + differenceOf(error)))];
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
  return differences.filter((difference) => explained[difference] === undefined).map((difference) => `reference ${LATEST_VERSION}: ${difference}`);
}
