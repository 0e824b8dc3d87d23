/**
 * Footprint: how long `npm start` (node src/main.ts: API and worker, embedded
 * PostgreSQL) takes from spawn until GET /healthz answers, on an empty data
 * directory and on a loaded one, and the process's resident memory once idle.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rssMb, spawnNode, waitForOk } from './lib/processes.ts';
import { percentile, round } from './lib/stats.ts';

export interface StartMeasure {
  startSeconds: number;
  idleRssMb: number;
}

const PORT = 27520;

/** One start of the service on `dataDir`: time to the first 200 from /healthz, RSS after `idleSeconds`. */
export async function measureStart(env: Record<string, string>, idleSeconds: number): Promise<StartMeasure> {
  const started = performance.now();
  const service = spawnNode('src/main.ts', [], { ...env, PORT: String(PORT), HOST: '127.0.0.1' });
  try {
    const ms = await waitForOk(`http://127.0.0.1:${PORT}/healthz`, service, started);
    await sleep(idleSeconds * 1000);
    return { startSeconds: round(ms / 1000, 2), idleRssMb: await rssMb(service.child.pid) };
  } finally {
    await service.stop();
  }
}

/** Median of `runs` first starts, each on a new empty data directory. */
export async function emptyStarts(
  runs: number,
  log: (m: string) => void,
): Promise<{ runs: StartMeasure[]; startSeconds: number; idleRssMb: number }> {
  const measures: StartMeasure[] = [];
  for (let n = 0; n < runs; n++) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-start-'));
    // The embedded PostgreSQL runs as the postgres user when we are root: it must reach the directory.
    await chmod(dir, 0o755);
    try {
      measures.push(
        await measureStart(
          {
            DATA_DIR: dir,
            EMBEDDED_POSTGRES_PORT: '54420',
            DATABASE_URL: '',
            REDIS_URL: '',
            ADMIN_TOKEN: '',
            ENCRYPTION_KEY: '',
            LOG_LEVEL: 'warn',
          },
          5,
        ),
      );
      log(`footprint: empty data dir start ${measures.at(-1)?.startSeconds ?? 0} s`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return {
    runs: measures,
    startSeconds: percentile(
      measures.map((m) => m.startSeconds),
      50,
    ),
    idleRssMb: percentile(
      measures.map((m) => m.idleRssMb),
      50,
    ),
  };
}
