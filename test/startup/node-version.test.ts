import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.ts';

// Issue 32, item 6: on a Node that cannot run TypeScript (< 22.18), `npm start` and `ledgerport` say which Node to
// install instead of failing with ERR_UNKNOWN_FILE_EXTENSION. Run for real with an old Node when the machine has one
// (Debian's /usr/bin/node is 20 here and on CI; .ci/node.sh puts Node 24 first on PATH).

function nodeVersion(binary: string): string | null {
  try {
    return execFileSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch {
    return null;
  }
}

function tooOld(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 18);
}

const candidates = [
  ...new Set(['/usr/bin/node', '/usr/local/bin/node', ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'node'))]),
].filter((binary) => binary !== process.execPath && existsSync(binary));
const oldNode = candidates.find((binary) => {
  const version = nodeVersion(binary);
  return version !== null && tooOld(version);
});
const why = oldNode ?? `cannot run: no Node older than 22.18 on this machine (looked at ${candidates.join(', ') || 'no other node'})`;

function expectInstallAdvice(result: { status: number | null; stderr: string }): void {
  expect(result.status, result.stderr).toBe(1);
  expect(result.stderr).toContain('Ledgerport needs Node.js 22.18 or newer');
  expect(result.stderr).toContain(`this is Node.js v${nodeVersion(oldNode ?? '') ?? '?'}`);
  expect(result.stderr).toContain('What to do: install Node.js 24');
  expect(result.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe(`on a Node older than 22.18 (${why})`, () => {
  it.skipIf(oldNode === undefined)("npm start's entry says which Node to install", () => {
    expectInstallAdvice(spawnSync(oldNode ?? '', ['bin/start.js'], { cwd: ROOT, encoding: 'utf8' }));
  });

  it.skipIf(oldNode === undefined)('ledgerport --help says which Node to install', () => {
    expectInstallAdvice(spawnSync(oldNode ?? '', ['bin/ledgerport.js', '--help'], { cwd: ROOT, encoding: 'utf8' }));
  });

  const oldNpm = oldNode === undefined ? undefined : path.join(path.dirname(oldNode), 'npm');
  it.skipIf(oldNpm === undefined || !existsSync(oldNpm))('npm start, with that Node first on PATH, says which Node to install', () => {
    const dir = path.dirname(oldNode ?? '');
    const result = spawnSync(oldNpm ?? '', ['start'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH ?? ''}` },
    });
    expectInstallAdvice(result);
  });
});

describe('the entries on this Node', () => {
  it('npm start and npm run worker go through the version check', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe('node bin/start.js');
    expect(scripts.worker).toBe('node bin/start.js --role=worker');
  });

  it('bin/start.js runs the service (which checks its arguments first)', () => {
    const result = spawnSync(process.execPath, ['bin/start.js', '--role=nope'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--role must be all, api or worker');
  });

  it('ledgerport --help prints the usage; an unknown option, the usage too', () => {
    const help = spawnSync(process.execPath, ['bin/ledgerport.js', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('ledgerport org create --name <name>');
    const unknown = spawnSync(process.execPath, ['bin/ledgerport.js', 'org', 'list', '--bogus'], { cwd: ROOT, encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--bogus'");
    expect(unknown.stderr).toContain('usage:');
  });
});
