import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateClientTypes } from '../scripts/types.ts';

// The committed types are what the service's /openapi.json generates today; after an API change, regenerate them
// with `npm run generate --workspace @ledgerport/client` and commit the result.
describe('packages/client/src/generated/schema.d.ts', () => {
  it('is what the served /openapi.json generates', async () => {
    const committed = await readFile(new URL('./generated/schema.d.ts', import.meta.url), 'utf8');
    const generated = await generateClientTypes();
    // Not toBe: a 1.8 MB diff would drown the message.
    expect(generated === committed, 'stale: run npm run generate --workspace @ledgerport/client').toBe(true);
  });
});
