/**
 * `mkdir -p` that always ends. Node's `mkdir(…, { recursive: true })` never settles for a path the kernel refuses
 * with ENOENT although its parent exists (`DATA_DIR=/proc/x`: the service hung at start, saying nothing); here
 * that ENOENT is thrown, so the start fails with a message.
 */
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

function codeOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

export async function makeDirectory(directory: string, mode?: number): Promise<void> {
  const absolute = path.resolve(directory);
  const options = mode === undefined ? {} : { mode };
  try {
    await mkdir(absolute, options);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'EEXIST' && (await stat(absolute)).isDirectory()) return;
    const parent = path.dirname(absolute);
    if (code !== 'ENOENT' || parent === absolute) throw error;
    await makeDirectory(parent, mode);
    // Once more, now that the parent exists: a second ENOENT is the kernel's answer for this path, and is thrown.
    try {
      await mkdir(absolute, options);
    } catch (again) {
      if (codeOf(again) === 'EEXIST' && (await stat(absolute)).isDirectory()) return;
      throw again;
    }
  }
}
