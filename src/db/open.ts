/**
 * The database a process uses: DATABASE_URL, or else the embedded PostgreSQL in
 * DATA_DIR with our database created in it. Kept apart from src/runtime.ts so
 * src/server.ts can start PostgreSQL before the rest of the application loads.
 */
import pg from 'pg';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.ts';

export interface OpenDatabase {
  url: string;
  /** The embedded server this process started or attached to; null with DATABASE_URL. */
  embedded: EmbeddedDatabase | null;
}

const EMBEDDED_DATABASE = 'ledgerport';

async function ensureDatabase(serverUrl: string, database: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE ${database}`).catch((error: unknown) => {
        // Another process created it at the same moment.
        if ((error as { code?: string }).code !== '42P04') throw error;
      });
    }
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** `onRunning`: see startEmbeddedPostgres. */
export async function openDatabase(config: Config, log: (m: string) => void, onRunning?: () => void): Promise<OpenDatabase> {
  if (config.databaseUrl !== null) return { url: config.databaseUrl, embedded: null };
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPostgresPort, log, onRunning });
  return { url: await ensureDatabase(embedded.url, EMBEDDED_DATABASE), embedded };
}
