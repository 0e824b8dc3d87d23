import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import { listOrganizationRows } from '../sql/organizations.ts';
import { ensureFirstAdmin } from './users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('a first admin for an installation without dashboard users', () => {
  it('is made once, in the oldest organisation, however many processes start together', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => ensureFirstAdmin(t.db.pool, 'first@example.com')));
    const made = [a, b, c].filter((x) => x !== null);
    expect(made).toHaveLength(1);
    const oldest = (await listOrganizationRows(t.db.pool))[0];
    expect(made[0]?.organizationId).toBe(oldest?.id);
    const page = await t.app.inject({ method: 'GET', url: `/dashboard/sign-in/${made[0]?.signInToken ?? ''}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('first@example.com');
    expect(await ensureFirstAdmin(t.db.pool, 'second@example.com')).toBeNull();
    const users = await t.db.pool.query<{ email: string; role: string }>('SELECT email, role FROM dashboard_users');
    expect(users.rows).toEqual([{ email: 'first@example.com', role: 'admin' }]);
  });
});
