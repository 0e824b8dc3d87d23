/**
 * Records the success response schemas of every /versioned operation, per API version, in src/http/api-snapshot.json.
 * Run: node scripts/api-snapshot.ts after a non-breaking change (a new endpoint, a new field); src/http/api-snapshot.test.ts
 * fails while the file is stale, and refuses a breaking change no registered version change explains (docs/versions.md).
 */
import { writeFile } from 'node:fs/promises';
import { formatSnapshot, snapshotOf } from '../src/http/api-snapshot.ts';
import { API_VERSIONS } from '../src/http/versioning.ts';
import { servedOpenApiDocument } from '../test/support/openapi-document.ts';

const { document, versions } = await servedOpenApiDocument();
const target = new URL('../src/http/api-snapshot.json', import.meta.url);
await writeFile(target, formatSnapshot(snapshotOf(document, API_VERSIONS, versions)));
console.log(`wrote ${target.pathname}`);
