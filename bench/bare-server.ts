/**
 * The practical limit for the read benchmark: a bare Fastify + pg handler for
 * GET /versioned/accounting/bills that runs the same SQL statement as the
 * service and answers the same bytes (same response schema, same envelope,
 * same cursor), with nothing else: no authentication, no rate limit, no
 * connection lookup (access tokens map to connections in memory), no logging.
 *
 *   BENCH_BARE_CONNECTIONS=<json file> DATABASE_URL=… PORT=… node bench/bare-server.ts
 */
import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { ConnectionRefSchema } from '../src/api/shared/envelope.ts';
import { planListPage } from '../src/api/data/list-query.ts';
import { createPool } from '../src/db/pool.ts';
import { MODEL } from '../src/model/index.ts';
import { buildListQuery, type RecordRow } from '../src/sql/list-records.ts';

interface BareConnection {
  accessToken: string;
  id: string;
  platform: string;
  orgId: string;
}

const file = process.env.BENCH_BARE_CONNECTIONS ?? '';
const connections: BareConnection[] = JSON.parse(await readFile(file, 'utf8')) as BareConnection[];
const byToken = new Map(connections.map((c) => [c.accessToken, c]));
const pool = createPool(process.env.DATABASE_URL ?? '', { max: 20, applicationName: 'bench-bare' });

const Response = Type.Object({
  bills: Type.Array(MODEL.bill.schema),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  connection: ConnectionRefSchema,
});

const app = Fastify({ logger: false });
app.get('/versioned/accounting/bills', { schema: { response: { 200: Response } } }, async (request) => {
  const query = request.query as { access_token?: string; filter?: string; cursor?: string; limit?: string };
  const connection = byToken.get(query.access_token ?? '');
  if (connection === undefined) throw new Error('unknown access token');
  // The same plan and statement the service builds for this query.
  const plan = planListPage(
    connection.id,
    'bill',
    { filter: query.filter, cursor: query.cursor, limit: query.limit === undefined ? undefined : Number(query.limit) },
    false,
  );
  const { text, values } = buildListQuery(plan.query);
  const rows = (await pool.query<RecordRow>(text, values)).rows;
  const next = rows[plan.query.limit];
  return {
    bills: rows.slice(0, plan.query.limit).map((row) => ({ ...row.data, last_synced_at: row.last_synced_at.toISOString() })),
    next_cursor: next === undefined ? null : plan.cursorOf(next),
    connection: { id: connection.id, platform: connection.platform, orgId: connection.orgId },
  };
});
app.get('/healthz', () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
