/**
 * Writes test/contracts/reference/differences.json from a run that recorded the differences it saw
 * (REFERENCE_DIFFERENCES_OUT, test/support/reference-conformance.ts): every difference seen is listed, a reason already
 * written is kept, a new one gets the placeholder below until someone writes why, and with --prune (after a whole run)
 * a listed difference no answer showed any more is dropped.
 * Run: REFERENCE_DIFFERENCES_OUT=/tmp/seen npx vitest run && node scripts/reference-differences.ts /tmp/seen --prune
 */
import { readFileSync, writeFileSync } from 'node:fs';

export const UNREASONED = 'not yet as the reference has it (issue 35, shapes)';

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
