import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher } from '../../src/crypto/secrets.ts';
import { migrate } from '../../src/db/migrate.ts';
import { MAX_PENDING } from '../../src/ratelimit/batched.ts';
import { createOrganization, type CreatedOrganization } from '../../src/tenants/organizations.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { randomPort, startService, waitForOk, type ServiceProcess } from '../support/process.ts';

// Two real API processes on one database: every limit and lock lives in PostgreSQL.
let db: TestDatabase;
let org: CreatedOrganization;
const services: ServiceProcess[] = [];
const ports = [randomPort(), randomPort()];
const key = randomBytes(32).toString('hex');

beforeAll(async () => {
  db = await createTestDatabase('embedded');
  await migrate(db.pool);
  org = await createOrganization(db.pool, createCipher(Buffer.from(key, 'hex')), 'Two processes');
  for (const port of ports) {
    services.push(
      startService(['--role=api'], {
        DATABASE_URL: db.url,
        PORT: String(port),
        ENCRYPTION_KEY: key,
        ADMIN_TOKEN: 'multi-process-admin-token',
        HOST: '127.0.0.1',
        // 300 concurrent requests per process from one address, each on its own connection: no per-client socket cap here.
        HTTP_MAX_CONNECTIONS_PER_CLIENT: '0',
        // One window for the whole burst, however slow the machine: in a 10 s window a burst that took longer (a loaded
        // CI machine) was rightly admitted again by the next window (599 of 600).
        RATE_LIMIT_WINDOW_SECONDS: '3600',
      }),
    );
  }
  await Promise.all(ports.map((port, i) => waitForOk(`http://127.0.0.1:${port}/readyz`, 20_000, services[i])));
}, 60_000);

afterAll(async () => {
  for (const service of services) service.child.kill('SIGTERM');
  await Promise.all(services.map((s) => s.exited));
  await db.close();
});

describe('two API processes on one database', () => {
  it('admit 500 requests of one organisation in total', async () => {
    const auth = `Basic ${Buffer.from(`${org.credentials.sandbox.client_id}:${org.credentials.sandbox.client_secret}`).toString('base64')}`;
    const statuses = await Promise.all(
      Array.from({ length: 600 }, async (_, i) => {
        const response = await fetch(`http://127.0.0.1:${ports[i % 2] ?? 0}/versioned/connections?limit=1`, {
          headers: { authorization: auth, 'x-service-version': '2024-08-31' },
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    // Each process adds its requests to the shared count in batches of at most MAX_PENDING (src/ratelimit/batched.ts):
    // each process's last batch can land after the other saw the count reach 500.
    const admitted = statuses.filter((s) => s === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(500);
    expect(admitted).toBeLessThanOrEqual(500 + 2 * MAX_PENDING);
    expect(statuses.filter((s) => s === 429)).toHaveLength(600 - admitted);
  });
});
