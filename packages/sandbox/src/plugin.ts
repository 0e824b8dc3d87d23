/**
 * SANDBOX's one entry point for the product: the process that hosts it (src/runtime.ts, the only product
 * module allowed to import the sandbox, see docs/architecture.md "Layers") asks it for its connector, its
 * migrations and its pages, and leaves them all out when SANDBOX_ENABLED=false.
 *
 *   const sandbox = sandboxPlugin({ pool, options });
 *   await sandbox.migrate();             // schema sandbox_platform, its own migrations
 *   replaceConnector(sandbox.connector); // a platform like any other, replacing an earlier plugin's
 *   buildApp(services, { mounts: [sandbox.pages] });
 *
 * Each plugin owns its platform: its connector, pages and simulators reach that instance and no other, so a test
 * that starts several apps (or one with other options) gets a SANDBOX per app, not a process-wide one.
 */
import type { FastifyInstance } from 'fastify';
import type { Pool } from '../../../src/db/pool.ts';
import type { Connector } from '../../../src/platforms/connector.ts';
import { createSandboxConnector } from './index.ts';
import { migrateSandbox } from './migrate.ts';
import type { SandboxOptions } from './options.ts';
import { registerSandboxPages } from './pages.ts';
import { SandboxPlatform } from './platform.ts';
import type { PlatformSimulatorRoute } from '../../../src/platforms/simulators.ts';
import { simulatorHost, SIMULATOR_CLIENT_ID, SIMULATOR_CLIENT_SECRET, type SimulatorHost } from './simulators/host.ts';
import { SIMULATORS } from './simulators/index.ts';
import type { PlatformSimulator } from './simulators/kit.ts';
import { registerSimulatorRoutes, simulatorPrefix } from './simulators/routes.ts';

export { optionsFromEnv as sandboxOptionsFromEnv, type SandboxOptions } from './options.ts';

export interface SandboxPlugin {
  /** The SANDBOX platform's connector, bound to `platform`: to register with replaceConnector (src/platforms/registry.ts). */
  connector: Connector;
  /** The platform itself (its books in schema sandbox_platform), in this process. */
  platform: SandboxPlatform;
  /** Applies the sandbox's own pending migrations (schema sandbox_platform); returns the versions applied. */
  migrate: () => Promise<number[]>;
  /** Mounts the platform's own web pages (bank feed linking) and the simulators' (/simulators/<platform>) on the service's app. */
  pages: (app: FastifyInstance) => void;
  /** The platform simulators over SANDBOX's books (docs/simulators.md), to register with src/platforms/simulators.ts. */
  simulators: PlatformSimulatorRoute[];
}

/** Where the service's link flow receives OAuth callbacks: the simulators' app redirects there (root-relative). */
const LINK_CALLBACK = '/link/oauth/callback';

function routeOf(host: SimulatorHost): PlatformSimulatorRoute {
  const prefix = simulatorPrefix(host.simulator.platform);
  return {
    platform: host.simulator.platform,
    fetch: host.fetch,
    app: host.app,
    consentUrl(authorizeUrl) {
      const url = new URL(authorizeUrl);
      // A consent page on the account's own host (Shopify's shop) keeps the host in a parameter once moved here.
      const hostParam = host.simulator.oauth.hostParam;
      if (hostParam !== undefined) url.searchParams.set(hostParam, url.host);
      return `${prefix}${url.pathname}${url.search}`;
    },
  };
}

export function sandboxPlugin(input: { pool: Pool; options?: Partial<SandboxOptions>; simulators?: readonly PlatformSimulator[] }): SandboxPlugin {
  const platform = new SandboxPlatform(input.pool, input.options);
  const app = { clientId: SIMULATOR_CLIENT_ID, clientSecret: SIMULATOR_CLIENT_SECRET, redirectUri: LINK_CALLBACK };
  const hosts = (input.simulators ?? SIMULATORS).map((simulator) => simulatorHost(platform, simulator, app));
  return {
    // Over HTTP instead when SANDBOX_URL points at a sandbox server, as the service's worker in a fault test does.
    connector: createSandboxConnector({ platform: () => platform }),
    platform,
    migrate: () => migrateSandbox(input.pool),
    pages: (service) => {
      registerSandboxPages(service, { platform: () => platform });
      registerSimulatorRoutes(service, hosts);
    },
    simulators: hosts.map(routeOf),
  };
}
