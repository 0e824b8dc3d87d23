/**
 * Xero's published OpenAPI 3.0 contracts (test/contracts/xero: the Accounting API and the identity /connections
 * contract) as the stand-in's validator, on the kit's OpenAPI validator. The identity API's paths match whatever their
 * case (/connections), as Xero's do.
 */
import { readFileSync } from 'node:fs';
import { OpenApiContract, type Operation as KitOperation } from '../kit/openapi.ts';

export { convertNullable, type RequestParts } from '../kit/openapi.ts';

export type XeroApi = 'accounting' | 'identity';
export type Operation = KitOperation<XeroApi>;
export type XeroContract = OpenApiContract<XeroApi>;

const CONTRACTS = new URL('../../contracts/xero/', import.meta.url);

const load = (file: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(file, CONTRACTS), 'utf8')) as Record<string, unknown>;

let accounting: Record<string, unknown> | null = null;
let shared: XeroContract | null = null;

/** The Accounting API's description, parsed once (its examples seed the stand-in). */
export function accountingDocument(): Record<string, unknown> {
  accounting ??= load('xero_accounting.json');
  return accounting;
}

/** One parsed contract per process: compiling schemas is the slow part. */
export function xeroContract(): XeroContract {
  shared ??= new OpenApiContract<XeroApi>(
    { accounting: accountingDocument(), identity: load('xero-identity.json') },
    { caseInsensitive: ['identity'] },
  );
  return shared;
}
