/** One flood of bench/lib/customers.ts in its own process: the order as argv[2] (JSON), the result as the last line. */
import { runFlood, type FloodOrder } from './customers.ts';

const order = JSON.parse(process.argv[2] ?? '{}') as FloodOrder;
process.stdout.write(`${JSON.stringify(await runFlood(order))}\n`);
