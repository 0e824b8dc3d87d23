/**
 * The layer rules of .dependency-cruiser.cjs (docs/architecture.md, "Layers"), run by `npm run lint`: an import
 * that breaks the map fails with the rule's name. Each case writes a few stub modules into a temporary tree shaped
 * like src/, runs dependency-cruiser there with the project's own configuration, and reads the exit code and the
 * output. The clean cases matter as much: a configuration that refused everything would pass the others.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const run = promisify(execFile);

interface Exception {
  from: string;
  to: string;
  reason: string;
}
interface Layers {
  LEVELS: { level: string; units: Record<string, string> }[];
  EXCEPTIONS: Exception[];
  SANDBOX_MOUNTS: string[];
  layersConfig: (exceptions: Exception[]) => object;
}

function isLayers(value: unknown): value is Layers {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray(Reflect.get(value, 'LEVELS')) &&
    Array.isArray(Reflect.get(value, 'EXCEPTIONS')) &&
    typeof Reflect.get(value, 'layersConfig') === 'function'
  );
}

const loaded: unknown = createRequire(import.meta.url)(CONFIG);
if (!isLayers(loaded)) throw new Error('.dependency-cruiser.cjs no longer exports LEVELS, EXCEPTIONS and layersConfig');
const layers = loaded;

const trees: string[] = [];
afterAll(async () => {
  await Promise.all(trees.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A temporary tree with these files (path → source), each import target a stub that exists. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-layers-'));
  trees.push(dir);
  const all: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', allowImportingTsExtensions: true, noEmit: true },
      include: ['src', 'packages'],
    }),
    ...files,
  };
  for (const [file, source] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), source);
  }
  return dir;
}

/** A stub module that exports one value. */
const stub = 'export const value = 1;\n';

/** Cruises src, and the SANDBOX package when the tree has it (as `npm run lint` does). */
async function cruise(cwd: string, config = CONFIG): Promise<{ code: number; output: string }> {
  const targets = ['src', ...(existsSync(path.join(cwd, 'packages/sandbox/src')) ? ['packages/sandbox/src'] : [])];
  try {
    const { stdout, stderr } = await run(process.execPath, [DEPCRUISE, ...targets, '--config', config, '--output-type', 'err'], { cwd });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    // Exit code = number of violations; a crash (no such file, a bad configuration) exits non-zero too, but
    // prints no rule name, so the cases below still fail on it.
    if (
      error instanceof Error &&
      'code' in error &&
      typeof error.code === 'number' &&
      'stdout' in error &&
      typeof error.stdout === 'string' &&
      'stderr' in error &&
      typeof error.stderr === 'string'
    ) {
      return { code: error.code, output: error.stdout + error.stderr };
    }
    throw error;
  }
}

async function expectViolation(files: Record<string, string>, rule: string, edge: string): Promise<void> {
  const { code, output } = await cruise(await tree(files));
  expect(code, output).not.toBe(0);
  expect(output).toContain(`error ${rule}: ${edge}`);
}

async function expectClean(files: Record<string, string>): Promise<void> {
  const { code, output } = await cruise(await tree(files));
  expect(output).toContain('no dependency violations found');
  expect(code, output).toBe(0);
}

describe('npm run lint: the layers of src/', () => {
  // The whole tree: about 20 s on a quiet machine, over 30 s when two test files share its cores with other load.
  it('passes on the code as it is', { timeout: 180_000 }, async () => {
    const { code, output } = await cruise(ROOT);
    expect(output).toContain('no dependency violations found');
    expect(code, output).toBe(0);
  });

  it('passes downward imports, skipped levels included (an API route reading through src/sql)', async () => {
    await expectClean({
      'src/api/route.ts':
        "import { value } from '../sql/query.ts';\nimport { value as v2 } from '../writes/accept.ts';\nexport const route = value + v2;\n",
      'src/sql/query.ts': "import { value } from '../db/pool.ts';\nexport { value };\n",
      'src/writes/accept.ts': "import { value } from '../sync/requests.ts';\nexport { value };\n",
      'src/sync/requests.ts': "import { value } from '../queue/names.ts';\nexport { value };\n",
      'src/db/pool.ts': stub,
      'src/queue/names.ts': stub,
    });
  });

  it('fails on an upward import: src/sql importing an API route', async () => {
    await expectViolation(
      {
        'src/sql/__probe.ts': "import { value } from '../api/routes.ts';\nexport const probe = value;\n",
        'src/api/routes.ts': stub,
      },
      'no-upward-import',
      'src/sql/__probe.ts → src/api/routes.ts',
    );
  });

  it('fails on an upward import of types only', async () => {
    await expectViolation(
      {
        'src/sync/__probe.ts': "import type { Job } from '../writes/job.ts';\nexport const probe = (job: Job): string => job.id;\n",
        'src/writes/job.ts': 'export interface Job { id: string }\n',
      },
      'no-upward-import',
      'src/sync/__probe.ts → src/writes/job.ts',
    );
  });

  it('fails when the platform kit reaches up into the link pages (the cycle platforms/tokens.ts → link/sql.ts was)', async () => {
    await expectViolation(
      {
        'src/platforms/tokens.ts': "import { value } from '../link/sql.ts';\nexport const tokens = value;\n",
        'src/link/sql.ts': stub,
      },
      'no-upward-import',
      'src/platforms/tokens.ts → src/link/sql.ts',
    );
  });

  it('fails on an import between two units of one level', async () => {
    await expectViolation(
      {
        'src/events/__probe.ts': "import { value } from '../store/ids.ts';\nexport const probe = value;\n",
        'src/store/ids.ts': stub,
      },
      'no-sibling-import',
      'src/events/__probe.ts → src/store/ids.ts',
    );
  });

  it('fails when one platform folder imports another, and passes shared helpers of the kit', async () => {
    await expectViolation(
      {
        'src/platforms/xero/__probe.ts': "import { value } from '../quickbooks/inbound.ts';\nexport const probe = value;\n",
        'src/platforms/quickbooks/inbound.ts': stub,
      },
      'platform-folders-apart',
      'src/platforms/xero/__probe.ts → src/platforms/quickbooks/inbound.ts',
    );
    await expectClean({
      'src/platforms/xero/inbound.ts': "import { value } from '../inbound.ts';\nexport const probe = value;\n",
      'src/platforms/quickbooks/inbound.ts': "import { value } from '../inbound.ts';\nexport const probe = value;\n",
      'src/platforms/inbound.ts': stub,
    });
  });

  it('fails when product code takes a connector from its folder instead of the catalogue', async () => {
    await expectViolation(
      {
        'src/sync/__probe.ts': "import { value } from '../platforms/xero/index.ts';\nexport const probe = value;\n",
        'src/platforms/xero/index.ts': stub,
      },
      'connectors-through-catalogue',
      'src/sync/__probe.ts → src/platforms/xero/index.ts',
    );
  });

  it('lets only the composition point import the SANDBOX package, through its plugin entry point', async () => {
    await expectViolation(
      {
        'src/sync/__probe.ts': "import { value } from '../../packages/sandbox/src/plugin.ts';\nexport const probe = value;\n",
        'packages/sandbox/src/plugin.ts': stub,
      },
      'sandbox-mounts-only',
      'src/sync/__probe.ts → packages/sandbox/src/plugin.ts',
    );
    // The catalogue and the app do not: SANDBOX is registered and mounted by the process that hosts it.
    await expectViolation(
      {
        'src/platforms/index.ts': "import { value } from '../../packages/sandbox/src/plugin.ts';\nexport const probe = value;\n",
        'packages/sandbox/src/plugin.ts': stub,
      },
      'sandbox-mounts-only',
      'src/platforms/index.ts → packages/sandbox/src/plugin.ts',
    );
    await expectViolation(
      {
        'src/runtime.ts': "import { value } from '../packages/sandbox/src/index.ts';\nexport const probe = value;\n",
        'packages/sandbox/src/index.ts': stub,
      },
      'sandbox-through-plugin',
      'src/runtime.ts → packages/sandbox/src/index.ts',
    );
    expect(layers.SANDBOX_MOUNTS).toEqual(['src/runtime.ts']);
    await expectClean({
      'src/runtime.ts': "import { value } from '../packages/sandbox/src/plugin.ts';\nexport const probe = value;\n",
      'packages/sandbox/src/plugin.ts': "import { value } from './index.ts';\nexport { value };\n",
      'packages/sandbox/src/index.ts':
        "import { value } from '../../../src/platforms/connector.ts';\nimport { value as v2 } from '../../../src/db/pool.ts';\nexport const probe = value + v2;\n",
      'src/platforms/connector.ts': stub,
      'src/db/pool.ts': stub,
    });
  });

  it("keeps SANDBOX on the product's foundation, database access and platform kit", async () => {
    await expectViolation(
      {
        'packages/sandbox/src/pages.ts': "import { value } from '../../../src/link/html.ts';\nexport const probe = value;\n",
        'src/link/html.ts': stub,
      },
      'sandbox-leans-on-kit',
      'packages/sandbox/src/pages.ts → src/link/html.ts',
    );
    await expectViolation(
      {
        'packages/sandbox/src/index.ts': "import { value } from '../../../src/platforms/index.ts';\nexport const probe = value;\n",
        'src/platforms/index.ts': stub,
      },
      'sandbox-leans-on-kit',
      'packages/sandbox/src/index.ts → src/platforms/index.ts',
    );
    await expectViolation(
      {
        'packages/sandbox/src/books.ts': "import { value } from '../../../test/support/app.ts';\nexport const probe = value;\n",
        'test/support/app.ts': stub,
        'src/db/pool.ts': stub,
      },
      'not-to-tests',
      'packages/sandbox/src/books.ts → test/support/app.ts',
    );
  });

  it('fails on modules that import each other', async () => {
    const { code, output } = await cruise(
      await tree({
        'src/money/a.ts': "import { b } from './b.ts';\nexport const a = (): number => b() + 1;\n",
        'src/money/b.ts': "import { a } from './a.ts';\nexport const b = (): number => a() - 1;\n",
      }),
    );
    expect(code, output).not.toBe(0);
    // The cycle is printed one module per line: a → b → a.
    expect(output.replace(/\s+/g, ' ')).toContain('error no-circular: src/money/a.ts → src/money/b.ts → src/money/a.ts');
  });

  it('fails when product code imports a test helper; tests themselves are not checked', async () => {
    await expectViolation(
      {
        'src/sync/__probe.ts': "import { value } from '../../test/support/app.ts';\nexport const probe = value;\n",
        'test/support/app.ts': stub,
      },
      'not-to-tests',
      'src/sync/__probe.ts → test/support/app.ts',
    );
    await expectClean({
      'src/sql/queries.test.ts': "import { value } from '../api/routes.ts';\nexport const probe = value;\n",
      'src/api/routes.ts': stub,
    });
  });

  it('lets a listed exception through, and only that one edge', async () => {
    const dir = await tree({
      'src/sql/__probe.ts':
        "import { value } from '../api/routes.ts';\nimport { value as other } from '../api/other.ts';\nexport const probe = value + other;\n",
      'src/sql/__second.ts': "import { value } from '../api/routes.ts';\nexport const probe = value;\n",
      'src/api/routes.ts': stub,
      'src/api/other.ts': stub,
    });
    const config = path.join(dir, 'layers.json');
    await writeFile(config, JSON.stringify(layers.layersConfig([{ from: 'src/sql/__probe.ts', to: 'src/api/routes.ts', reason: 'test' }])));
    const { code, output } = await cruise(dir, config);
    expect(code, output).not.toBe(0);
    expect(output).not.toContain('src/sql/__probe.ts → src/api/routes.ts');
    expect(output).toContain('error no-upward-import: src/sql/__probe.ts → src/api/other.ts');
    expect(output).toContain('error no-upward-import: src/sql/__second.ts → src/api/routes.ts');
  });

  it('is the map docs/architecture.md shows: one row per level, one entry per known exception', async () => {
    const doc = await readFile(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Layers'), doc.indexOf('\n## ', doc.indexOf('## Layers') + 1));
    const rows = section
      .split('\n')
      .filter((line) => /^\| \d+ \|/.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, 3)
          .map((cell) => cell.trim())
          .join(' '),
      );
    expect(rows).toEqual(layers.LEVELS.map((l) => l.level));
    const exceptions = section
      .slice(section.indexOf('### Known exceptions'))
      .split('\n')
      .filter((line) => line.startsWith('- `src/'));
    expect(exceptions).toHaveLength(layers.EXCEPTIONS.length);
    for (const exception of layers.EXCEPTIONS) expect(section).toContain(`\`${exception.from}\` → \`${exception.to}\``);
  });
});
