import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDirectory } from './make-directory.ts';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'make-directory-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('makeDirectory', () => {
  it('makes missing parents, and is content when the directory exists', async () => {
    const deep = path.join(root, 'a', 'b', 'c');
    await makeDirectory(deep);
    await makeDirectory(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
  });

  it('refuses a path whose existing entry is a file', async () => {
    const file = path.join(root, 'file');
    await writeFile(file, '');
    await expect(makeDirectory(file)).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(makeDirectory(path.join(file, 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.runIf(process.platform === 'linux')('fails, rather than waiting for ever, where the kernel refuses the path (/proc)', async () => {
    await expect(makeDirectory('/proc/ledgerport-data')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
