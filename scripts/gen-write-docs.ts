/**
 * Refreshes the generated table of docs/writes.md from src/writes/writable.ts.
 * Run: node scripts/gen-write-docs.ts (src/writes/docs.test.ts fails when it is stale).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { withWritableTable } from '../src/writes/docs.ts';

const target = new URL('../docs/writes.md', import.meta.url);
await writeFile(target, withWritableTable(await readFile(target, 'utf8')));
console.log(`wrote ${target.pathname}`);
