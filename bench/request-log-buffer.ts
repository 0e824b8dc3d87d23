/**
 * What the request log adds to each request inside the API process (issue 33, item 4): building its row and
 * appending it to the buffer (src/http/request-log.ts), with a sink that writes nothing, so only the request path's
 * share is timed. The database's share is one multi-row INSERT a second, measured with the service in
 * bench/request-log.ts. `node bench/request-log-buffer.ts`; figures, not assertions.
 */
import { randomUUID } from 'node:crypto';
import { RequestLogWriter } from '../src/http/request-log.ts';
import { silentLogger } from '../src/log/logger.ts';
let rows = 0;
const writer = new RequestLogWriter(
  (entries) => {
    rows += entries.length;
    return Promise.resolve();
  },
  { enabled: true, retentionHours: 72, maxRowsPerOrganization: 1, flushIntervalMs: 1000, flushRows: 500 },
  silentLogger(),
);
const org = randomUUID();
const n = 500_000;
for (let round = 0; round < 3; round++) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    writer.record({
      id: randomUUID(),
      organizationId: org,
      environment: 'sandbox',
      createdAt: new Date(),
      method: 'GET',
      route: '/versioned/accounting/customers',
      status: 200,
      durationMs: 1.5,
      requestId: 'r',
      connectionId: null,
      errorCode: null,
    });
    if (i % 500 === 0) await Promise.resolve();
  }
  const ns = Number(process.hrtime.bigint() - start) / n;
  console.log(`round ${round + 1}: ${ns.toFixed(0)} ns per request (row built and buffered)`);
}
await writer.close();
console.log('rows handed to the sink', rows);
