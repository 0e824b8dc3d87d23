/** Writes packages/client/src/generated/schema.d.ts from the service's /openapi.json (scripts/types.ts). */
import { writeFile } from 'node:fs/promises';
import { generateClientTypes } from './types.ts';

const target = new URL('../src/generated/schema.d.ts', import.meta.url);
await writeFile(target, await generateClientTypes());
process.stdout.write(`wrote ${target.pathname}\n`);
