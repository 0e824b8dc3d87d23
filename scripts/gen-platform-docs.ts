/**
 * Writes docs/platforms.md from the registered connectors.
 * Run: node scripts/gen-platform-docs.ts (src/platforms/docs.test.ts fails when it is stale).
 */
import { writeFile } from 'node:fs/promises';
import { listConnectors } from '../src/platforms/index.ts';
import { renderPlatformsMarkdown } from '../src/platforms/docs.ts';
import { createSandboxConnector } from '../packages/sandbox/src/index.ts';

const target = new URL('../docs/platforms.md', import.meta.url);
// SANDBOX as the default service offers it (SANDBOX_ENABLED), besides the catalogue's.
await writeFile(target, renderPlatformsMarkdown([...listConnectors(), createSandboxConnector()]));
console.log(`wrote ${target.pathname}`);
