#!/usr/bin/env node
// The CLI is TypeScript run by Node's type stripping (Node >= 22.18, checked first); see src/cli/main.ts.
// The compile cache is turned on next, as in src/main.ts (which says where it lives and why). Both are imported only
// after the check: an older Node lacks enableCompileCache and cannot load .ts files.
import { requireSupportedNode } from './node-version.js';

requireSupportedNode();
const { enableCompileCache } = await import('node:module');
enableCompileCache();
const argv = globalThis.process.argv.slice(2);
if (argv[0] === 'mcp') {
  // The MCP server is a client of a running API (packages/mcp): it needs none of the server's configuration.
  const { mcpEntry } = await import('../packages/mcp/src/main.ts');
  mcpEntry(argv.slice(1));
} else {
  const { cliEntry } = await import('../src/cli/main.ts');
  cliEntry(argv);
}
