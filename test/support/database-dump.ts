/**
 * The whole content of a test database as text, to search for what must not be
 * stored. pg_dump when the machine has one that can dump this server (its
 * major version at least the server's); otherwise every table of every schema
 * through `COPY … TO STDOUT`, which is what pg_dump's data section is made of.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const MAX_DUMP_BYTES = 1024 * 1024 * 1024;

export interface DatabaseDump {
  method: 'pg_dump' | 'copy';
  text: string;
}

/** The pg_dump on PATH and its major version, or null. */
export async function findPgDump(): Promise<{ path: string; major: number } | null> {
  try {
    const { stdout: found } = await run('which', ['pg_dump']);
    const path = found.trim();
    if (path === '') return null;
    const { stdout: version } = await run(path, ['--version']);
    const major = /\(PostgreSQL\)\s+(\d+)/.exec(version)?.[1];
    return major === undefined ? null : { path, major: Number(major) };
  } catch {
    return null;
  }
}

async function serverMajor(client: pg.Client): Promise<number> {
  const result = await client.query<{ version: string }>(`SELECT current_setting('server_version_num') AS version`);
  return Math.floor(Number(result.rows[0]?.version ?? '0') / 10000);
}

/** Runs one COPY … TO STDOUT and collects what the server sends (node-postgres leaves CopyData to the query object). */
class CopyOut implements pg.Submittable {
  private readonly chunks: Buffer[] = [];
  private failure: Error | null = null;
  private readonly text: string;
  private settle: { resolve: (data: Buffer) => void; reject: (error: Error) => void } | null = null;
  readonly done: Promise<Buffer>;

  constructor(text: string) {
    this.text = text;
    this.done = new Promise<Buffer>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  submit(connection: pg.Connection): void {
    (connection as pg.Connection & { query(text: string): void }).query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    // A copy: the chunk is a view into node-postgres's read buffer, which the next bytes to arrive may overwrite.
    this.chunks.push(Buffer.from(message.chunk));
  }
  handleCommandComplete(): void {
    /* the data has come; readyForQuery follows */
  }
  handleError(error: Error): void {
    this.failure = error;
  }
  handleReadyForQuery(): void {
    if (this.failure !== null) this.settle?.reject(this.failure);
    else this.settle?.resolve(Buffer.concat(this.chunks));
  }
}

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Every row of every table (and materialised view) in every schema but PostgreSQL's own, as COPY writes it. */
export async function copyDump(client: pg.Client): Promise<string> {
  const tables = await client.query<{ schema: string; name: string; kind: string }>(
    `SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS kind
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
      ORDER BY 1, 2`,
  );
  const parts: string[] = [];
  for (const table of tables.rows) {
    const name = `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`;
    // A materialised view is copied through a query (COPY takes plain tables only).
    const copy = new CopyOut(table.kind === 'm' ? `COPY (SELECT * FROM ${name}) TO STDOUT` : `COPY ${name} TO STDOUT`);
    // node-postgres returns a submittable itself; its promise is `done`.
    void client.query(copy);
    parts.push(`-- ${name}\n${(await copy.done).toString('utf8')}`);
  }
  return parts.join('\n');
}

export async function dumpDatabase(url: string): Promise<DatabaseDump> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const pgDump = await findPgDump();
    if (pgDump !== null && pgDump.major >= (await serverMajor(client))) {
      const { stdout } = await run(pgDump.path, ['--no-owner', '--no-privileges', `--dbname=${url}`], { maxBuffer: MAX_DUMP_BYTES });
      return { method: 'pg_dump', text: stdout };
    }
    return { method: 'copy', text: await copyDump(client) };
  } finally {
    await client.end();
  }
}
