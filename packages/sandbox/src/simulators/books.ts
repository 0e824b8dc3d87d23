/**
 * SimulatorBooks over the SANDBOX platform: one account's records, generated on first use and moved on by its clock,
 * exactly as the SANDBOX connector sees them. A simulated account is a SANDBOX account of its own (key
 * `<platform>:<username>`) seeded like the SANDBOX user of that name, so XERO or QUICKBOOKS connected with
 * `user_good` hold the same business as SANDBOX connected with `user_good`, each changed only by its own writes.
 */
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import type { NativeOf } from '../native.ts';
import type { SandboxPlatform } from '../platform.ts';
import { hashString } from '../prng.ts';
import { resolveAccount, SANDBOX_PASSWORD } from '../scenarios.ts';
import { allRecords, deletedRecords, getRecord } from '../store/read.ts';
import type { AccountState } from '../store/state.ts';
import type { SimulatorBooks } from './kit.ts';

/** The account key of `username` on a simulated platform, or null when SANDBOX refuses the username and password. */
export function simulatedAccountKey(platform: string, username: string, password: string): string | null {
  const account = resolveAccount(username, password);
  return account === null ? null : `${platform.toLowerCase()}:${username}`;
}

function usernameOf(accountKey: string): string {
  const colon = accountKey.indexOf(':');
  return colon < 0 ? accountKey : accountKey.slice(colon + 1);
}

/** The books of a simulated account (created and generated on first use). */
export async function simulatorBooks(platform: SandboxPlatform, accountKey: string): Promise<SimulatorBooks> {
  const username = usernameOf(accountKey);
  // SANDBOX's own reading of the name (its seed and its size, capped at MAX_SIZE), under this platform's key.
  const resolved = resolveAccount(username, SANDBOX_PASSWORD);
  const state0 = await platform.account({
    accountKey,
    // Simulators serve healthy books: the fault scenarios belong to SANDBOX's own API and the stand-ins.
    scenario: 'healthy',
    seed: resolved?.seed ?? hashString(username),
    size: resolved?.size ?? null,
  });
  const identity = platform.identity(state0);
  const current = async (): Promise<AccountState> => platform.catchUp(await platform.ready(state0));
  const books: SimulatorBooks = {
    accountKey,
    now: () => platform.options.now(),
    company: { name: identity.name, country: identity.country, currency: identity.currency },
    async all(type) {
      const state = await current();
      // Records of a collection hold that collection's native shape.
      return (await allRecords(platform.pool, state, type)) as NativeOf[typeof type][];
    },
    async get(type, id) {
      const state = await current();
      return (await getRecord(platform.pool, state, type, id)) as NativeOf[typeof type] | null;
    },
    async deleted(type: UnifiedObjectType) {
      const state = await current();
      return (await deletedRecords(platform.pool, state, type)).map((r) => ({
        id: r.data.Id,
        deletedAt: r.deletedAt.toISOString(),
        record: r.data,
      }));
    },
    async write(request) {
      const state = await current();
      const path = `/simulated/${request.type}/${request.id ?? ''}`;
      return platform.write(state, request, path);
    },
    async writeVariant(request) {
      const state = await current();
      return platform.writeVariant(state, request, `/simulated/product/${request.productId}/variants/${request.variantId ?? ''}`);
    },
  };
  return books;
}
