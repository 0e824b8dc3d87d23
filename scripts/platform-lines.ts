/**
 * Hand-written TypeScript lines of each platform's connector, simulator and stand-in, and of the kits they share, as
 * issue 34 measures them: tests (`*.test.ts`), generated files (JSON, `generated/` folders, `*.generated.ts`) and
 * blank lines included as `wc -l` counts them, tests and generated files aside. Run: node scripts/platform-lines.ts
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const PLATFORMS = ['xero', 'quickbooks', 'shopify', 'stripe'] as const;

function handWritten(file: string): boolean {
  if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.generated.ts') || file.endsWith('.d.ts')) return false;
  return !file.split(path.sep).includes('generated');
}

/** Lines of the hand-written files under `dir` (recursively unless `shallow`); 0 when it does not exist. */
function lines(dir: string, shallow = false): number {
  const full = path.join(ROOT, dir);
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(full);
  } catch {
    return 0;
  }
  for (const name of entries) {
    const at = path.join(full, name);
    if (statSync(at).isDirectory()) {
      if (!shallow) total += lines(path.join(dir, name));
    } else if (handWritten(at)) {
      total += readFileSync(at, 'utf8').split('\n').length - 1;
    }
  }
  return total;
}

const rows = PLATFORMS.map((platform) => {
  const connector = lines(`src/platforms/${platform}`);
  const simulator = lines(`packages/sandbox/src/simulators/${platform}`);
  const standin = lines(`test/standins/${platform}`);
  return { platform, connector, simulator, standin, total: connector + simulator + standin };
});
const sum = rows.reduce((total, row) => total + row.total, 0);
console.log('| Platform | Connector | Simulator | Stand-in | Total |\n|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.platform} | ${row.connector} | ${row.simulator} | ${row.standin} | ${row.total} |`);
console.log(`| **all four** | | | | **${sum}** (${((sum / 19_549) * 100).toFixed(0)}% of issue 34's 19,549) |`);
const kits = {
  'connector kit (src/platforms/*.ts and its folders but the platforms)':
    lines('src/platforms', true) +
    readdirSync(path.join(ROOT, 'src/platforms'))
      .filter((name) => !(PLATFORMS as readonly string[]).includes(name) && statSync(path.join(ROOT, 'src/platforms', name)).isDirectory())
      .reduce((total, name) => total + lines(`src/platforms/${name}`), 0),
  'simulator kit (packages/sandbox/src/simulators/*.ts)': lines('packages/sandbox/src/simulators', true),
  'stand-in kit (test/standins/kit)': lines('test/standins/kit'),
  'example connector (test/connectors/shopfront: connector, contract types, stand-in and simulator)': lines('test/connectors/shopfront'),
};
for (const [name, count] of Object.entries(kits)) console.log(`${name}: ${count}`);
