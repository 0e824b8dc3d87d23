/** One load run with autocannon: keep-alive clients for a fixed time, every request from `paths` in turn. */
import autocannon from 'autocannon';
import { round } from './stats.ts';

/** `failures`: errors, timeouts and every answer but 2xx; `serverErrors`: the 5xx among them. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  failures: number;
  serverErrors: number;
}

export async function load(
  baseUrl: string,
  options: { paths: readonly string[]; headers: Record<string, string>; connections: number; seconds: number },
): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const path = options.paths[next % options.paths.length] ?? '/';
          next += 1;
          return { ...request, path };
        },
      },
    ],
  });
  return {
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    p50Ms: round(result.latency.p50, 1),
    p99Ms: round(result.latency.p99, 1),
    requests: result.requests.total,
    failures: result.errors + result.timeouts + result.non2xx,
    serverErrors: result['5xx'],
  };
}

/**
 * Several runs against one server as one result: requests per second over their whole time, p50 weighted by
 * each run's requests, and the worst run's p99 (percentiles of separate runs cannot be merged exactly).
 */
export function combine(runs: readonly LoadResult[], seconds: number): LoadResult {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  return {
    requestsPerSecond: Math.round(requests / seconds),
    p50Ms: round(runs.reduce((sum, r) => sum + r.p50Ms * r.requests, 0) / Math.max(requests, 1), 1),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    requests,
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
    serverErrors: runs.reduce((sum, r) => sum + r.serverErrors, 0),
  };
}
