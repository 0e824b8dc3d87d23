/**
 * A process that claims an Idempotency-Key through the real code, keeps renewing it as a running request does, and
 * says `claimed`: a test kills it (SIGKILL) to leave a claim whose owner died mid-request.
 * Argument: JSON { url, scope, request }.
 */
import { randomBytes } from 'node:crypto';
import { createCipher } from '../../src/crypto/secrets.ts';
import { createPool } from '../../src/db/pool.ts';
import { beginIdempotent, keepClaimAlive } from '../../src/idempotency/idempotency.ts';
import type { IdempotencyScope } from '../../src/sql/idempotency.ts';

const { url, scope, request } = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  scope: IdempotencyScope;
  request: { method: string; path: string; body: unknown };
};
const pool = createPool(url, { max: 2, applicationName: 'idempotency-owner' });
const outcome = await beginIdempotent(pool, createCipher(randomBytes(32)), scope, request, { waitMs: 0 });
if (outcome.kind !== 'execute') throw new Error('the key was not free');
keepClaimAlive(pool, outcome.claim, (error) => {
  process.stderr.write(`renewal failed: ${String(error)}\n`);
});
process.stdout.write('claimed\n');
// Runs until killed, like a request stuck in its handler.
setInterval(() => undefined, 60_000);
