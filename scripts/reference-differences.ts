/**
 * Writes test/contracts/reference/differences.json from a run that recorded the differences it saw
 * (REFERENCE_DIFFERENCES_OUT, test/support/reference-conformance.ts): every difference seen is listed, a reason already
 * written is kept, a new one gets the backlog's placeholder (UNREASONED) until someone writes why — the test's ceiling on
 * the backlog refuses it until then — and with --prune (after a whole run)
 * a listed difference no answer showed any more is dropped.
 * Run: REFERENCE_DIFFERENCES_OUT=/tmp/seen npx vitest run && node scripts/reference-differences.ts /tmp/seen --prune
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { UNREASONED } from '../test/support/reference-conformance.ts';

const [recorded, ...flags] = process.argv.slice(2);
if (recorded === undefined) throw new Error('usage: node scripts/reference-differences.ts <recorded file> [--prune]');
const target = new URL('../test/contracts/reference/differences.json', import.meta.url);
const listed = JSON.parse(readFileSync(target, 'utf8')) as Record<string, string>;
const seen = new Set(
  readFileSync(recorded, 'utf8')
    .split('\n')
    .filter((line) => line !== ''),
);

const next: Record<string, string> = {};
for (const key of [...new Set([...Object.keys(listed), ...seen])].sort()) {
  if (flags.includes('--prune') && !seen.has(key)) continue;
  next[key] = listed[key] ?? UNREASONED;
}
writeFileSync(target, `${JSON.stringify(next, null, 1)}\n`);
const added = Object.keys(next).filter((key) => listed[key] === undefined).length;
const dropped = Object.keys(listed).filter((key) => next[key] === undefined).length;
console.log(`${Object.keys(next).length} differences listed (${added} added, ${dropped} dropped)`);
const backlog = Object.values(next).filter((reason) => reason === UNREASONED).length;
// A new difference lands in the backlog only with a reason to write; the test's ceiling refuses a longer backlog.
for (const key of Object.keys(next)) if (listed[key] === undefined) console.log(`new, write its reason: ${key}`);
console.log(`backlog (no reason yet): ${backlog}`);
