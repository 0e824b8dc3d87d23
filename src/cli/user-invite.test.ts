import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import { ROOT } from '../../test/support/process.ts';
import { listDashboardUsers } from '../sql/dashboard-users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const run = promisify(execFile);
const fixed = { ADMIN_TOKEN: `cli-test-${randomBytes(8).toString('hex')}`, ENCRYPTION_KEY: randomBytes(32).toString('hex') };

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/ledgerport.js', 'user', 'invite', ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: t.db.url,
        ...fixed,
        DATA_DIR: '/tmp/ledgerport-test-data',
        LOG_LEVEL: 'silent',
        PUBLIC_URL: 'https://lp.example.com',
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('ledgerport user invite (CLI)', () => {
  it('invites a dashboard user and prints their one-time sign-in link', async () => {
    const id = t.org.organization.id;
    const invited = await cli(['--id', id, '--email', 'cli.admin@example.com']);
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.stdout).toMatch(/https:\/\/lp\.example\.com\/dashboard\/sign-in\/lplnk_/);
    const users = await listDashboardUsers(t.db.pool, id);
    expect(users.map((u) => [u.email, u.role])).toContainEqual(['cli.admin@example.com', 'admin']);
  });

  it('refuses a bad role or a missing email before touching the database', async () => {
    const badRole = await cli(['--id', t.org.organization.id, '--email', 'x@example.com', '--role', 'owner']);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role must be admin, developer or viewer');
    const noEmail = await cli(['--id', t.org.organization.id]);
    expect(noEmail.code).toBe(2);
    expect((await listDashboardUsers(t.db.pool, t.org.organization.id)).map((u) => u.email)).not.toContain('x@example.com');
  });
});
