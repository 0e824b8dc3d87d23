#!/usr/bin/env node
// The CLI is TypeScript run by Node's type stripping (Node >= 22.18); see src/cli/main.ts.
import { cliEntry } from '../src/cli/main.ts';

cliEntry(globalThis.process.argv.slice(2));
