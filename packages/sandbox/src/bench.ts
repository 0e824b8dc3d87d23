/**
 * Measures the sandbox at a given size: materialization (generate + insert),
 * a full read through the connector, a tick, and a write.
 *
 *   DATABASE_URL=postgres://… node packages/sandbox/src/bench.ts [records=1000000]
 *
 * The database needs the sandbox migration (src/db/migrations/0002_sandbox_platform.sql).
 */
import pg from 'pg';
import { createSandboxConnector, inProcessTransport, SandboxPlatform } from './index.ts';
import { readAll, testContext, writeContext } from './testkit.ts';

const size = Number(process.argv[2] ?? 1_000_000);
const url = process.env.DATABASE_URL;
if (url === undefined || url === '') throw new Error('DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: url, max: 6 });
const platform = new SandboxPlatform(pool, { tickIntervalMs: 0 });
const connector = createSandboxConnector({ transport: inProcessTransport(() => platform) });
const username = `user_bench_size_${size}`;
const ctx = testContext({ basic_username: username, basic_password: 'pass_good' });

const time = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const result = await work();
  process.stdout.write(`${label}: ${Math.round(performance.now() - started)} ms\n`);
  return result;
};

try {
  await platform.reset(username);
  await connector.identify(ctx);
  const made = await time('materialize (generate + insert)', () => platform.materialize(username));
  process.stdout.write(`  ${made?.records ?? 0} records\n`);
  const all = await time('full read of every object type via the connector', () => readAll(connector, ctx));
  process.stdout.write(`  ${all.records.length} records in ${all.pages} pages\n`);
  await time('one tick', () => platform.advance(username, 1));
  const changes = await time('incremental read after the tick', () => readAll(connector, ctx, all.cursors));
  process.stdout.write(`  ${changes.records.length} changed, ${changes.deleted.length} deleted\n`);
  const bill = connector.objects.bill?.handler;
  const create = bill?.create?.bind(bill);
  if (create !== undefined) {
    await time('create a bill', () =>
      create(writeContext(ctx, `bench-${Date.now()}`), {
        vendor_id: 'vendor:VEN-000001',
        issue_date: new Date().toISOString(),
        line_items: [{ account_id: 'account:ACC-000030', total_amount: 10 }],
      }),
    );
  }
} finally {
  await platform.reset(username);
  await pool.end();
}
