#!/usr/bin/env node
// The CLI is TypeScript run by Node's type stripping (Node >= 22.18); see src/cli/main.ts.
// The compile cache is turned on first, as in src/main.ts (which says where it lives and why).
import { enableCompileCache } from 'node:module';

enableCompileCache();
const { cliEntry } = await import('../src/cli/main.ts');
cliEntry(globalThis.process.argv.slice(2));
