/**
 * Refreshes the generated table of docs/objects.md from src/model.
 * Run: node scripts/gen-object-docs.ts (src/model/docs.test.ts fails when it is stale).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { withObjectTable } from '../src/model/docs.ts';

const target = new URL('../docs/objects.md', import.meta.url);
await writeFile(target, withObjectTable(await readFile(target, 'utf8')));
console.log(`wrote ${target.pathname}`);
