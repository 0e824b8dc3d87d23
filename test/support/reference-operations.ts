/**
 * The reference's operations (test/contracts/reference/rutter-2024-08-31.json, written by
 * scripts/gen-reference-contract.ts) and how our routes stand for them: our /versioned prefix aside, parameters by
 * position whatever their names, and the commerce objects the spec puts under /commerce/ answering for the reference's
 * root paths (`/commerce/orders` for `/orders`; docs/reference.md).
 */
import { readFileSync } from 'node:fs';

export interface ReferenceOperation {
  name: string;
  method: string;
  /** The reference's path, parameters in braces (`/accounting/invoices/{id}`). */
  path: string;
  response?: object;
}

interface ReferenceFile {
  source: { repository: string; commit: string };
  version: string;
  operations: ReferenceOperation[];
}

const FILE = new URL('../contracts/reference/rutter-2024-08-31.json', import.meta.url);

let loaded: ReferenceFile | undefined;
export function referenceFile(): ReferenceFile {
  loaded ??= JSON.parse(readFileSync(FILE, 'utf8')) as ReferenceFile;
  return loaded;
}

/** Objects the spec serves under /commerce/ where the reference has them at the root. */
const UNDER_COMMERCE = /^\/commerce\/(orders|products|customers|transactions|customer_groups|subscriptions|disputes|balance)(\/|$)/;

/** Our one static route per object (`/accounting/invoices/custom_fields`) for the reference's `{entityType}` parameter. */
const CUSTOM_FIELDS = /^\/accounting\/(bills|expenses|invoices|invoice_payments|journal_entries)\/custom_fields$/;

/** Our route (`/versioned/commerce/orders/:id` or `/versioned/commerce/orders/{id}`) as the reference's shape of path, parameters as `{}`. */
export function referencePathOf(route: string): string | null {
  if (!route.startsWith('/versioned/')) return null;
  const path = route.slice('/versioned'.length).replace(/:[A-Za-z0-9_]+|\{[A-Za-z0-9_]+\}/g, '{}');
  if (CUSTOM_FIELDS.test(path)) return '/accounting/{}/custom_fields';
  return UNDER_COMMERCE.test(path) ? path.slice('/commerce'.length) : path;
}

/** `GET /accounting/invoices/{}`: an operation by method and path, whatever its parameters are named. */
export const operationKey = (method: string, path: string): string => `${method.toUpperCase()} ${path.replace(/\{[A-Za-z0-9_]+\}/g, '{}')}`;

let byKey: Map<string, ReferenceOperation> | undefined;

/** The reference operation our route answers for, if any. */
export function referenceOperationOf(method: string, route: string): ReferenceOperation | undefined {
  const path = referencePathOf(route);
  if (path === null) return undefined;
  byKey ??= new Map(referenceFile().operations.map((operation) => [operationKey(operation.method, operation.path), operation]));
  return byKey.get(operationKey(method === 'HEAD' ? 'GET' : method, path));
}
