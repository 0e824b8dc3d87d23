/**
 * The service's own logger (createLogger) writing its JSON lines into memory, for tests that read back what a
 * process logged: ids on worker lines, trace ids, the organisation on throttled requests.
 */
import type { Logger } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger, type LoggerOptions } from '../../src/log/logger.ts';

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface CapturedLog {
  log: Logger;
  /** Everything written, as written. */
  text: () => string;
  lines: () => LogLine[];
  withMessage: (msg: string) => LogLine[];
}

export function capturedLog(options: Omit<LoggerOptions, 'role' | 'destination'>): CapturedLog {
  const written: string[] = [];
  const log = createLogger({
    ...options,
    role: 'test',
    destination: {
      write: (chunk: string) => {
        written.push(chunk);
      },
    },
  });
  const lines = (): LogLine[] =>
    written
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
  return { log, text: () => written.join(''), lines, withMessage: (msg) => lines().filter((line) => line.msg === msg) };
}

/** What `find` finds once it finds something (lines and spans written after an answer arrive a moment later), or [] after `timeoutMs`. */
export async function eventually<T>(find: () => T[], timeoutMs = 10_000): Promise<T[]> {
  let found = find();
  for (let waited = 0; found.length === 0 && waited < timeoutMs; waited += 50) {
    await sleep(50);
    found = find();
  }
  return found;
}
