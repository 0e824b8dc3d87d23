import { PlatformError } from '../../src/platforms/errors.ts';

/** The PlatformError `work` throws; fails the test when it throws nothing or something else. */
export function platformRefusal(work: () => unknown): PlatformError {
  try {
    work();
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('expected a PlatformError');
}
