/**
 * What refusing inexact number literals (src/http/exact-numbers.ts) adds to parsing a JSON write body: Fastify's
 * own JSON parser alone against it wrapped, on a bill of 50 lines whose text has no risky literal (the hot path:
 * one regular expression over the text), on the same bill with one `1e2` (the slow path: a second parse with a
 * reviver), and on a 1 MiB body of strings.
 *   node bench/exact-numbers.ts [iterations]
 * Not part of `npm run bench` (no database, no service): a micro-benchmark to quote next to the code.
 */
import Fastify, { type FastifyBodyParser, type FastifyRequest } from 'fastify';
import { exactNumbersJsonParser } from '../src/http/exact-numbers.ts';

const ITERATIONS = Number(process.argv[2] ?? 20_000);
const app = Fastify();
const fastifyParser = app.getDefaultJsonParser('error', 'error');
const exactParser = exactNumbersJsonParser(fastifyParser);
// The parsers never read the request.
const request = {} as FastifyRequest;

const line = (n: number, amount: string): string =>
  `{"account_id": "5f0c1d2e-3f40-4a5b-8c6d-7e8f9a0b${String(1000 + n)}", "description": "Line ${String(n)} of the bill", "total_amount": ${amount}, "tax_rate_id": null, "item": {"id": "9e3f2a1b-0000-4a5b-8c6d-7e8f9a0b1c2d", "quantity": 2, "unit_amount": 61.75}}`;
const billText = (amounts: string[]): string =>
  `{"bill": {"vendor_id": "c8b080c4-bc9e-5b38-8af8-4589f74e14e9", "issue_date": "2026-11-29", "currency_code": "USD", "memo": "Office supplies, November: 12 boxes", "line_items": [${amounts.map((a, n) => line(n, a)).join(', ')}]}}`;
const plain = billText(Array.from({ length: 50 }, (_, n) => `${String(100 + n)}.50`));
const risky = billText(Array.from({ length: 50 }, (_, n) => (n === 25 ? '1e2' : `${String(100 + n)}.50`)));
const big = JSON.stringify({ notes: Array.from({ length: 16_000 }, (_, n) => `note ${String(n)}: ${'x'.repeat(50)}`) });

function microsPerParse(parser: FastifyBodyParser<string>, text: string, iterations: number): number {
  let failures = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    // Both answer through the callback, at once.
    void parser(request, text, (error: Error | null) => {
      if (error !== null) failures++;
    });
  }
  const micros = Number(process.hrtime.bigint() - start) / 1000 / iterations;
  if (failures > 0) throw new Error(`${String(failures)} parses failed`);
  return micros;
}

for (const [name, text, iterations] of [
  ['bill, 50 lines, no risky literal', plain, ITERATIONS],
  ['bill, 50 lines, one 1e2', risky, ITERATIONS],
  ['1 MiB of strings', big, Math.max(10, Math.floor(ITERATIONS / 200))],
] as const) {
  // Warm both up first, then measure each in turn.
  microsPerParse(fastifyParser, text, iterations);
  microsPerParse(exactParser, text, iterations);
  const alone = microsPerParse(fastifyParser, text, iterations);
  const wrapped = microsPerParse(exactParser, text, iterations);
  console.log(
    `${name} (${String(text.length)} bytes): Fastify's parser ${alone.toFixed(1)} µs, with the exact-number check ${wrapped.toFixed(1)} µs (+${(wrapped - alone).toFixed(1)} µs)`,
  );
}
