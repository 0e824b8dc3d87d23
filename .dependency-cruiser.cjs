// The layers of src/ (docs/architecture.md, "Layers"), checked by `npm run lint`.
//
// Each level lists its units (a folder, a few files, or a pinned file). A module may import its own unit and
// any unit of a LOWER level; never a unit of a higher level (no-upward-import) nor another unit of the same
// level (no-sibling-import: siblings are independent, so no cycle between folders can form). Type-only
// imports count: a layer that knows another's types is coupled to it. Test files (*.test.ts) are not checked.
//
// To change the map, change LEVELS here and the table in docs/architecture.md together.
/** @type {{ level: string, units: Record<string, string> }[]} bottom first; a unit is a regular expression on the path */
const LEVELS = [
  {
    level: '0 foundation',
    units: {
      errors: '^src/errors/',
      money: '^src/money/',
      log: '^src/log/',
      metrics: '^src/metrics/',
      crypto: '^src/crypto/',
      model: '^src/model/',
      files: '^src/files/',
      // The HTML template tag of every served page: the hosted link pages and SANDBOX's.
      html: '^src/html/',
      config: '^src/config\\.ts$',
      // Pinned: the shared record types (who is calling, a connection as stored). Types and row mapping only.
      'record-types': '^src/(tenants|connections)/types\\.ts$',
    },
  },
  { level: '1 database access', units: { db: '^src/db/', query: '^src/query/' } },
  { level: '2 queries and queue', units: { sql: '^src/sql/', queue: '^src/queue/' } },
  {
    level: '3 base services',
    units: {
      'core-services': '^src/core-services\\.ts$',
      tenants: '^src/tenants/(?!types\\.ts$)',
      events: '^src/events/',
      idempotency: '^src/idempotency/',
      ratelimit: '^src/ratelimit/',
      store: '^src/store/',
      // Dashboard users, their sessions and the audit log.
      users: '^src/users/',
    },
  },
  { level: '4 platform kit', units: { 'platform-kit': '^src/platforms/(?!index\\.ts$)[^/]+$' } },
  // One unit for all of them: rule platform-folders-apart keeps them from importing each other.
  { level: '5 platform connectors', units: { connectors: '^src/platforms/[^/]+/' } },
  { level: '6 connector catalogue', units: { catalogue: '^src/platforms/index\\.ts$' } },
  { level: '7 connection services', units: { connections: '^src/connections/(?!types\\.ts$)', webhooks: '^src/webhooks/' } },
  { level: '8 sync', units: { sync: '^src/sync/' } },
  { level: '9 writes', units: { writes: '^src/writes/' } },
  { level: '10 orchestration', units: { jobs: '^src/jobs/' } },
  { level: '11 http edge', units: { http: '^src/http/|^src/services\\.ts$' } },
  { level: '12 http surfaces', units: { api: '^src/api/', link: '^src/link/', dashboard: '^src/dashboard/' } },
  { level: '13 composition', units: { composition: '^src/(app|runtime|server|main|startup-gc)\\.ts$|^src/cli/' } },
];

// Imports that break the map today and need more than a move to fix. Each is one edge (module → module): any
// other import between the same folders still fails. Keep docs/architecture.md, "Known exceptions", in step.
/** @type {{ from: string, to: string, reason: string }[]} exact paths */
const EXCEPTIONS = [];

// SANDBOX is an optional plugin, its own workspace package (packages/sandbox; docs/architecture.md, "SANDBOX, a
// plugin"): one composition point hosts it, through its one entry point, and it leans only on the product's
// foundation, database access and platform kit, never the other way. `npm run lint` cruises src and the package.
const SANDBOX = '^packages/sandbox/';
const SANDBOX_MOUNTS = ['src/runtime.ts'];
const SANDBOX_ENTRY = 'packages/sandbox/src/plugin.ts';
const SANDBOX_MAY_IMPORT = '^src/(platforms/(?!index\\.ts$)[^/]+$|errors/|money/|log/|crypto/|model/|files/|html/|db/)';

const TEST_FILE = '\\.test\\.ts$';
const exact = (path) => `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/** Forbidden rules for `from` → `to`, minus the excepted edges (each one module → one module). */
function forbid(exceptions, name, comment, from, to) {
  const excepted = exceptions.filter((e) => new RegExp(from.path).test(e.from) && new RegExp(to.path).test(e.to) && !(to.pathNot !== undefined && new RegExp(to.pathNot).test(e.to)));
  const sources = [...new Set(excepted.map((e) => e.from))];
  const pathNot = [TEST_FILE, ...(from.pathNot === undefined ? [] : [from.pathNot]), ...sources.map(exact)].join('|');
  return [
    { name, comment, severity: 'error', from: { ...from, pathNot }, to },
    ...sources.map((source) => ({
      name, comment: `${comment} (known exceptions of ${source} excepted)`, severity: 'error',
      from: { path: exact(source) },
      to: { ...to, pathNot: [...(to.pathNot === undefined ? [] : [to.pathNot]), ...excepted.filter((e) => e.from === source).map((e) => exact(e.to))].join('|') },
    })),
  ];
}

const layerRules = (exceptions) => LEVELS.flatMap(({ level, units }, index) => {
  const above = LEVELS.slice(index + 1).flatMap((l) => Object.values(l.units));
  const here = Object.entries(units);
  return [
    ...(above.length === 0 ? [] : forbid(exceptions, 'no-upward-import',
      `level ${level} imports a higher level: move the code down, or the import up (docs/architecture.md, "Layers")`,
      { path: here.map(([, path]) => path).join('|') }, { path: above.join('|') })),
    ...(here.length < 2 ? [] : here.flatMap(([unit, path]) => forbid(exceptions, 'no-sibling-import',
      `${unit} (level ${level}) imports another unit of its level: siblings stay independent (docs/architecture.md, "Layers")`,
      { path }, { path: here.filter(([other]) => other !== unit).map(([, p]) => p).join('|') }))),
  ];
});

/** The configuration with these exceptions (test/lint/layers.test.ts builds one with its own). */
const layersConfig = (exceptions) => ({
  forbidden: [
    ...layerRules(exceptions),
    ...forbid(exceptions, 'platform-folders-apart',
      'a platform folder imports another platform folder: share code through the kit (src/platforms/*.ts, e.g. inbound.ts)',
      { path: '^src/platforms/([^/]+)/' }, { path: '^src/platforms/[^/]+/', pathNot: '^src/platforms/$1/' }),
    ...forbid(exceptions, 'connectors-through-catalogue',
      'product code reaches a connector through src/platforms/index.ts (getConnector), never its folder',
      { path: '^src/', pathNot: '^src/platforms/' }, { path: '^src/platforms/[^/]+/' }),
    ...forbid(exceptions, 'sandbox-mounts-only',
      `the SANDBOX package is imported only by ${SANDBOX_MOUNTS.join(', ')}`,
      { path: '^src/', pathNot: SANDBOX_MOUNTS.map(exact).join('|') }, { path: SANDBOX }),
    ...forbid(exceptions, 'sandbox-through-plugin',
      `the product reaches SANDBOX through its one entry point, ${SANDBOX_ENTRY}, never its other modules`,
      { path: '^src/' }, { path: SANDBOX, pathNot: exact(SANDBOX_ENTRY) }),
    ...forbid(exceptions, 'sandbox-leans-on-kit',
      'SANDBOX imports only the foundation, database access and the platform kit of the product (src/platforms/*.ts)',
      { path: SANDBOX }, { path: '^src/', pathNot: SANDBOX_MAY_IMPORT }),
    {
      name: 'no-circular', severity: 'error', comment: 'modules importing each other, directly or around a loop',
      from: { path: `^src/|${SANDBOX}`, pathNot: TEST_FILE }, to: { circular: true },
    },
    {
      name: 'not-to-tests', severity: 'error', comment: 'product code never imports a test or a test helper',
      from: { path: `^src/|${SANDBOX}`, pathNot: TEST_FILE }, to: { path: `${TEST_FILE}|^test/` },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // Tests beside the code import test/support: seen (rule not-to-tests), not followed.
    doNotFollow: { path: '^(node_modules|test)/' },
  },
});

module.exports = layersConfig(EXCEPTIONS);

// For test/lint/layers.test.ts; not enumerable, so dependency-cruiser's own configuration check never sees them.
Object.defineProperties(module.exports, {
  LEVELS: { value: LEVELS }, EXCEPTIONS: { value: EXCEPTIONS }, SANDBOX_MOUNTS: { value: SANDBOX_MOUNTS }, SANDBOX_ENTRY: { value: SANDBOX_ENTRY }, layersConfig: { value: layersConfig },
});
