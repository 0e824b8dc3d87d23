/** The start-up warning's query: production connections that would redirect, in organisations without a list. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { productionRedirectsWithoutList, upsertRedirectUrlList } from './redirect-urls.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

async function organization(name: string): Promise<string> {
  return (await db.pool.query<{ id: string }>('INSERT INTO organizations (name) VALUES ($1) RETURNING id', [name])).rows[0]?.id ?? '';
}

async function connection(organizationId: string, environment: string, redirectUrl: string | null): Promise<void> {
  const n = Math.random().toString(36);
  await db.pool.query(
    `INSERT INTO connections (organization_id, environment, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext, redirect_url)
     VALUES ($1, $2, sha256(convert_to('at' || $3, 'UTF8')), '\\x00'::bytea, sha256(convert_to('lk' || $3, 'UTF8')), '\\x00'::bytea, $4)`,
    [organizationId, environment, n, redirectUrl],
  );
}

describe('productionRedirectsWithoutList', () => {
  it('counts production connections with a redirect_url in organisations that set no production list', async () => {
    const unlisted = await organization('Upgraded, no list');
    const listed = await organization('Upgraded, listed');
    const sandboxOnly = await organization('Sandbox only');
    await connection(unlisted, 'production', 'https://app.example/done');
    await connection(unlisted, 'production', 'https://app.example/done');
    await connection(unlisted, 'production', null);
    await connection(listed, 'production', 'https://app.example/done');
    await upsertRedirectUrlList(db.pool, listed, 'production', ['https://app.example/done']);
    await connection(sandboxOnly, 'sandbox', 'https://app.example/done');
    expect(await productionRedirectsWithoutList(db.pool)).toEqual([{ organization_id: unlisted, connections: 2 }]);
  });
});
