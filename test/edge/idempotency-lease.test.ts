import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginIdempotent } from '../../src/idempotency/idempotency.ts';
import { ServiceError } from '../../src/errors/catalogue.ts';
import { clientHeaders, json, startTestApp, type TestApp } from '../support/app.ts';
import { probeEndpoints, type ProbeCounter } from '../support/probe-endpoints.ts';
import { ROOT } from '../support/process.ts';

// Issue 19, item 7: a claim whose owner died mid-request lapses within seconds; a retry takes the key over.
let t: TestApp;
const counter: ProbeCounter = { executions: 0 };
// The production wait for a duplicate (src/runtime.ts): the retry below waits as a real client's would.
beforeAll(async () => { t = await startTestApp({ extraVersionedEndpoints: probeEndpoints(counter), idempotencyWaitMs: 10_000 }); });
afterAll(async () => { await t.close(); });

const url = '/versioned/_probe/things';
const body = { name: 'crash' };

/** Claims `key` in a child process through the real code (renewing the claim), and resolves once it holds it. */
function claimInChild(key: string): Promise<ReturnType<typeof spawn>> {
  const argument = JSON.stringify({
    url: t.db.url,
    scope: { organizationId: t.org.organization.id, environment: 'sandbox', key },
    request: { method: 'POST', path: url, body },
  });
  const child = spawn(process.execPath, [path.join(ROOT, 'test/support/idempotency-owner.ts'), argument], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); if (output.includes('claimed')) resolve(child); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('exit', (code) => { reject(new Error(`claimer exited with ${code}: ${output}`)); });
  });
}

describe('Idempotency-Key claim of a killed process', () => {
  it('holds while its owner lives and renews it, and is taken over by a retry within seconds once the owner is killed', async () => {
    const key = 'key-killed-owner';
    const owner = await claimInChild(key);
    const exited = new Promise((resolve) => { owner.once('exit', resolve); });
    try {
      // A live owner keeps its claim past a wait longer than the lease: the renewals work.
      const scope = { organizationId: t.org.organization.id, environment: 'sandbox', key };
      const duplicate = beginIdempotent(t.db.pool, t.services.cipher, scope, { method: 'POST', path: url, body }, { waitMs: 10_000 });
      await expect(duplicate).rejects.toSatisfy((error) => error instanceof ServiceError && error.code === 'IDEMPOTENCY_KEY_IN_USE');
    } finally {
      owner.kill('SIGKILL');
    }
    await exited;

    const before = counter.executions;
    const started = Date.now();
    const retry = await t.app.inject({
      method: 'POST', url, payload: body,
      headers: { ...clientHeaders(t.org), 'content-type': 'application/json', 'idempotency-key': key },
    });
    // Outcome, not timing: the retry ran (it did not answer IDEMPOTENCY_KEY_IN_USE). The figure is for the report.
    expect(retry.statusCode).toBe(201);
    expect(counter.executions - before).toBe(1);
    expect(json(retry).name).toBe('crash');
    console.info(`retry after the owner's SIGKILL answered after ${Date.now() - started} ms`);

    const replay = await t.app.inject({
      method: 'POST', url, payload: body,
      headers: { ...clientHeaders(t.org), 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(retry.body);
  });
});
