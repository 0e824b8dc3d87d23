/**
 * A process that logs as the service does (createLogger → stdout): `node test/support/log-writer.ts <lines> [wait]`.
 * Writes <lines> lines of about 300 bytes at once, says `wrote` on stderr, then exits, or with `wait` first waits
 * until stdout has taken every queued line. At exit it says on stderr how many lines were dropped.
 */
import { writeSync } from 'node:fs';
import { stdoutDestination } from '../../src/log/destination.ts';
import { createLogger } from '../../src/log/logger.ts';

const lines = Number(process.argv[2]);
const log = createLogger({ level: 'info', role: 'api' });
const stdout = stdoutDestination();
process.on('exit', () => {
  writeSync(2, `dropped ${stdout.dropped}\n`);
});
const padding = 'x'.repeat(200);
for (let n = 0; n < lines; n++) log.info({ n, padding }, 'line');
writeSync(2, 'wrote\n');
if (process.argv[3] === 'wait') {
  const poll = setInterval(() => {
    if (stdout.queuedBytes === 0) {
      clearInterval(poll);
      process.exit(0);
    }
  }, 10);
} else {
  process.exit(0);
}
