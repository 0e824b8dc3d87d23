/**
 * A statement read with response_mode=async answered by one API process, its job fetched from another: the job is
 * a row in PostgreSQL, nothing in either process's memory, and another organisation's credentials do not find it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenOf, createConnection } from '../../src/connections/connections.ts';
import { createCipher } from '../../src/crypto/secrets.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createOrganization, type CreatedOrganization } from '../../src/tenants/organizations.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { randomPort, startApiProcesses, stopServices, type ServiceProcess } from '../support/process.ts';

let db: TestDatabase;
let org: CreatedOrganization;
let other: CreatedOrganization;
let token = '';
let services: ServiceProcess[] = [];
const ports = [randomPort(), randomPort()];
const key = randomBytes(32).toString('hex');

const headers = (o: CreatedOrganization) => ({
  authorization: `Basic ${Buffer.from(`${o.credentials.sandbox.client_id}:${o.credentials.sandbox.client_secret}`).toString('base64')}`,
  'x-service-version': '2024-08-31',
});

beforeAll(async () => {
  db = await createTestDatabase('embedded');
  await migrate(db.pool);
  const cipher = createCipher(Buffer.from(key, 'hex'));
  org = await createOrganization(db.pool, cipher, 'Report jobs');
  other = await createOrganization(db.pool, cipher, 'Report jobs, other');
  const { connection } = await createConnection(
    db.pool,
    cipher,
    { organizationId: org.organization.id, environment: 'sandbox' },
    {
      platform: 'SANDBOX',
      name: null,
      credentials: { basic_username: 'user_report_jobs', basic_password: 'pass_good' },
      identity: { storeUniqueId: 'report-jobs', storeName: 'Report jobs' },
      syncConfig: null,
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  // Ready, with the statements read in full, as a finished initial sync leaves it (no sync needed to read).
  await db.pool.query(`UPDATE connections SET status = 'active', ready_at = clock_timestamp() WHERE id = $1`, [connection.id]);
  await db.pool.query(
    `INSERT INTO sync_objects (connection_id, object_type, status, last_completed_at)
     SELECT $1, t, 'completed', clock_timestamp() FROM unnest(ARRAY['balance_sheet', 'income_statement', 'cash_flow_statement']) AS t`,
    [connection.id],
  );
  token = accessTokenOf(cipher, connection);
  services = await startApiProcesses(ports, { DATABASE_URL: db.url, ENCRYPTION_KEY: key, ADMIN_TOKEN: 'report-jobs-admin-token' });
}, 60_000);

afterAll(async () => {
  await stopServices(services);
  await db.close();
});

describe('statement jobs across two API processes', () => {
  it('one process answers the async_response, the other serves the job with the synchronous answer, to its organisation only', async () => {
    const [first = 0, second = 0] = ports;
    for (const path of ['/accounting/balance_sheets', '/accounting/income_statements', '/accounting/cash_flow_statements']) {
      const asked = await fetch(`http://127.0.0.1:${first}/versioned${path}?access_token=${token}&response_mode=async`, { headers: headers(org) });
      expect(asked.status, path).toBe(202);
      const { async_response: answer } = (await asked.json()) as { async_response: { id: string; status: string } };
      expect(answer.status).toBe('success');
      const sync = await fetch(`http://127.0.0.1:${second}/versioned${path}?access_token=${token}`, { headers: headers(org) });
      expect(sync.status).toBe(200);
      const job = await fetch(`http://127.0.0.1:${second}/versioned/jobs/${answer.id}`, { headers: headers(org) });
      expect(job.status).toBe(200);
      expect(((await job.json()) as { response: unknown }).response).toEqual({ http_status: 200, body: await sync.json() });
      const theirs = await fetch(`http://127.0.0.1:${second}/versioned/jobs/${answer.id}`, { headers: headers(other) });
      expect(theirs.status).toBe(410);
      expect(((await theirs.json()) as { error_code: string }).error_code).toBe('RESOURCE_NOT_FOUND');
    }
  });
});
