/**
 * Cost of reading the dashboard's session cookie at the edge (src/http/session-auth.ts): the `cookie` package's
 * parseCookie, which @fastify/cookie uses, beside the hand parser it replaced. Only a request without an
 * Authorization header (a dashboard session) parses its Cookie header; an API client's request never does.
 *   node bench/session-cookie.ts [iterations]
 * Not part of `npm run bench` (no database, no service): a micro-benchmark to quote next to the code.
 */
import { parseCookie } from 'cookie';

const ITERATIONS = Number(process.argv[2] ?? 2_000_000);
const HEADER = `lp_env=sandbox; lp_session=lpses_${'a'.repeat(43)}; lp_login=${'b'.repeat(32)}`;

/** The hand parser src/http/session-auth.ts had before. */
function handParser(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function nanosecondsPerCall(read: () => string | null | undefined): number {
  let length = 0;
  for (let i = 0; i < ITERATIONS / 10; i++) length += read()?.length ?? 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) length += read()?.length ?? 0;
  const elapsed = Number(process.hrtime.bigint() - started);
  if (length === 0) throw new Error('nothing was read');
  return elapsed / ITERATIONS;
}

for (let round = 1; round <= 3; round++) {
  const library = nanosecondsPerCall(() => parseCookie(HEADER).lp_session);
  const hand = nanosecondsPerCall(() => handParser(HEADER, 'lp_session'));
  process.stdout.write(`round ${round}: cookie.parseCookie ${library.toFixed(0)} ns, hand parser ${hand.toFixed(0)} ns per call\n`);
}
