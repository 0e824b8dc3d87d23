/** SANDBOX in a test's own process, as the service hosts it: a plugin on the test's database, its connector registered. */
import type { Pool } from '../../src/db/pool.ts';
import type { Connector } from '../../src/platforms/connector.ts';
import { getConnector, replaceConnector } from '../../src/platforms/registry.ts';
import { sandboxPlugin, type SandboxOptions, type SandboxPlugin } from '../../packages/sandbox/src/plugin.ts';

/** Time moves only through advance() unless `options` say otherwise; replaces an earlier test sandbox's connector. */
export function startTestSandbox(pool: Pool, options: Partial<SandboxOptions> = {}): SandboxPlugin {
  const sandbox = sandboxPlugin({ pool, options: { tickIntervalMs: 0, ...options } });
  replaceConnector(sandbox.connector);
  return sandbox;
}

/** The registered SANDBOX connector: the last test sandbox's (or the runtime's, when a test starts one). */
export function registeredSandboxConnector(): Connector {
  const connector = getConnector('SANDBOX');
  if (connector === undefined) throw new Error('SANDBOX is not registered: start a test app, a runtime or startTestSandbox(pool) first');
  return connector;
}
