/**
 * The retry schedule of the spec: retries after about 15 s, 25 s, 45 s,
 * 1.5 min, 3 min and 5.5 min (each plus up to 10 s of jitter), for up to 15
 * minutes from the webhook's creation; the next delay would pass the window,
 * so after the sixth retry a failing webhook is marked permanently failed.
 * `scale` (WEBHOOK_SCHEDULE_SCALE) shrinks delays and window alike, so tests
 * can run the whole schedule in seconds; it is 1 in real use.
 */
export const RETRY_DELAYS_MS = [15_000, 25_000, 45_000, 90_000, 180_000, 330_000] as const;
export const JITTER_MS = 10_000;
export const WINDOW_MS = 15 * 60_000;

/** Delay before the next attempt, after `attemptsDone` (≥ 1) attempts. */
export function retryDelayMs(attemptsDone: number, scale: number, random: () => number = Math.random): number {
  const index = Math.min(Math.max(attemptsDone, 1), RETRY_DELAYS_MS.length) - 1;
  const base: number = RETRY_DELAYS_MS[index] ?? 330_000;
  return Math.round((base + random() * JITTER_MS) * scale);
}

export function windowMs(scale: number): number {
  return Math.round(WINDOW_MS * scale);
}
