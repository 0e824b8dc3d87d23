/**
 * Platform simulators (docs/simulators.md): in the sandbox environment, a connection to a platform whose simulator is
 * registered, made by an organisation without an OAuth app of its own for it, talks to the simulator instead of the
 * platform. The SANDBOX plugin registers them (packages/sandbox/src/simulators); this kit module only routes: a
 * simulated connection's PlatformHttp calls the simulator's fetch instead of the network, its OAuth uses the
 * simulator's app, and the browser goes to the simulator's consent page on the service's own /simulators mount.
 *
 * Whether a connection is simulated is stored with it (connections.simulated, set when its link flow starts), so a
 * later OAuth app of the organisation does not send a simulated connection's tokens to the real platform.
 */
import type { OAuthAppCredentials } from './connector.ts';
import { PlatformError } from './errors.ts';
import type { FetchLike } from './http.ts';

export interface PlatformSimulatorRoute {
  /** The connector id it stands for. */
  platform: string;
  /** Every call of a simulated connection (API and token endpoint), answered in process. */
  fetch: FetchLike;
  /** The simulator's OAuth app: documented test credentials, the service's own callback. */
  app: OAuthAppCredentials;
  /** The platform's consent URL moved onto the service's mount (/simulators/<platform>/…), where the browser goes. */
  consentUrl(authorizeUrl: string): string;
}

const simulators = new Map<string, PlatformSimulatorRoute>();

/** Called by the process that hosts SANDBOX (src/runtime.ts) and by the test app; a second one for a platform replaces the first. */
export function registerSimulator(route: PlatformSimulatorRoute): void {
  simulators.set(route.platform, route);
}

export function simulatorFor(platform: string): PlatformSimulatorRoute | undefined {
  return simulators.get(platform);
}

/** Ids of the platforms with a simulator in this process, sorted. */
export function simulatedPlatforms(): string[] {
  return [...simulators.keys()].sort();
}

/** A fetch for a simulated connection whose simulator is not running (SANDBOX turned off since it was linked). */
const simulatorMissing =
  (platform: string): FetchLike =>
  () =>
    Promise.reject(
      new PlatformError({
        kind: 'server',
        message: `This ${platform} connection was linked to the ${platform} simulator, which is not running here (SANDBOX_ENABLED=false).`,
        requestSent: false,
      }),
    );

/** The fetch a connection's platform calls go through: the simulator's when it is simulated, else the network's (undefined). */
export function connectionFetch(platform: string, simulated: boolean): FetchLike | undefined {
  if (!simulated) return undefined;
  return simulatorFor(platform)?.fetch ?? simulatorMissing(platform);
}
