/**
 * For tests of one simulator's shapes without its OAuth: a fetch that answers every call for one account's books,
 * whatever bearer token it carries, so a connector's PlatformHttp can be pointed straight at the simulator.
 */
import type { FetchLike } from '../../../../src/platforms/http.ts';
import type { PlatformSimulator, SimulatorBooks } from './kit.ts';
import { requestOf, responseOf } from './wire.ts';

export function booksFetch(simulator: PlatformSimulator, books: SimulatorBooks, scope = ''): FetchLike {
  // Without the kit's OAuth every request is this account's, a link's too: any link token will do.
  const grant = {
    accountKey: books.accountKey,
    tenantId: simulator.tenantId(books.accountKey),
    scope,
    books,
    linkToken: () => Promise.resolve('test-link'),
  };
  return async (url, init) => responseOf(await simulator.handle(await requestOf(url, init), grant));
}
