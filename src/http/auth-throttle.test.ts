import { describe, expect, it } from 'vitest';
import { BlockedSourceChecks } from './auth-throttle.ts';

describe('BlockedSourceChecks: costly checks of attempts from blocked addresses', () => {
  it('runs one at a time, queues at most eight, and answers the rest null at once', async () => {
    const checks = new BlockedSourceChecks();
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const check = async (): Promise<string> => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => release.push(resolve));
      running -= 1;
      return 'checked';
    };
    const answers = Array.from({ length: 12 }, () => checks.run(check));
    // The first runs, eight wait, three are refused without running.
    const refused = await Promise.all(answers.slice(9));
    expect(refused).toEqual([null, null, null]);
    for (let i = 0; i < 9; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      release.shift()?.();
    }
    expect(await Promise.all(answers.slice(0, 9))).toEqual(Array.from({ length: 9 }, () => ({ value: 'checked' })));
    expect(most).toBe(1);
  });
});
