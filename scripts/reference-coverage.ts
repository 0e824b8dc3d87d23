/**
 * How many of the reference's operations in our areas (test/contracts/reference/rutter-2024-08-31.json) the service
 * declares, by area, and which are missing: issue 35's table, measured. A route answers for an operation as
 * test/support/reference-operations.ts matches them. Run: node scripts/reference-coverage.ts [--missing]
 */
import { operationKey, referenceFile, referencePathOf } from '../test/support/reference-operations.ts';
import { servedOpenApiDocument } from '../test/support/openapi-document.ts';

const AREAS: readonly (readonly [string, RegExp])[] = [
  ['attachments', /\/attachments(\/|$)/],
  ['custom fields', /^\/accounting\/(\{[^}]*\}|[a-z_]+\/custom_fields)/],
  ['bank feeds', /^\/accounting\/bank_feeds\//],
  ['reports & metrics', /^\/accounting\/(reports|metrics)(\/|$)/],
  ['HRIS', /^\/hris\//],
  ['connections, link, jobs, events', /^\/(connections|item|jobs|events)(\/|$)/],
  ['accounting entities', /^\/accounting\//],
  ['commerce & payments', /./],
];

const areaOf = (path: string): string => AREAS.find(([, pattern]) => pattern.test(path))?.[0] ?? 'other';

const { document } = await servedOpenApiDocument();
const served = new Set<string>();
for (const [route, operations] of Object.entries(document.paths)) {
  const path = referencePathOf(route);
  if (path !== null) for (const method of Object.keys(operations)) served.add(operationKey(method, path));
}

const counts = new Map<string, { declared: number; total: number; missing: string[] }>();
for (const operation of referenceFile().operations) {
  const area = areaOf(operation.path);
  const count = counts.get(area) ?? { declared: 0, total: 0, missing: [] };
  count.total += 1;
  if (served.has(operationKey(operation.method, operation.path))) count.declared += 1;
  else count.missing.push(`${operation.method} ${operation.path} (${operation.name})`);
  counts.set(area, count);
}

const showMissing = process.argv.includes('--missing');
console.log('| Area | Declared | Missing |\n|---|---|---|');
let declared = 0;
let total = 0;
for (const [area, count] of counts) {
  declared += count.declared;
  total += count.total;
  console.log(`| ${area} | ${count.declared}/${count.total} | ${count.total - count.declared} |`);
}
console.log(`| **all** | **${declared}/${total}** | ${total - declared} |`);
if (showMissing) for (const [area, count] of counts) for (const line of count.missing) console.log(`${area}: ${line}`);
// The document's app holds a database pool that never connected: nothing to wait for.
process.exit(0);
