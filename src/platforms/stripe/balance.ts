/**
 * The account's Stripe balance now (GET /v1/balance), one entry per currency: `amount` what is available to pay out,
 * in major units; Stripe's available and pending entries of that currency in platform_data. A currency with only a
 * pending amount is available 0. Read live through the library (its types), checked against Stripe's contract.
 */
import type { ConnectorContext, PlatformBalance } from '../connector.ts';
import { withStripe } from './client.ts';
import { parseRecord, type Balance } from './contract.ts';
import { toMajor } from './money.ts';

type Entry = Balance['available'][number];

export function mapBalance(balance: Balance): PlatformBalance[] {
  const currencies = [...new Set([...balance.available, ...balance.pending].map((entry) => entry.currency.toLowerCase()))].sort();
  const of = (entries: readonly Entry[], currency: string) => entries.filter((entry) => entry.currency.toLowerCase() === currency);
  return currencies.map((currency) => {
    const available = of(balance.available, currency);
    const pending = of(balance.pending, currency);
    const code = currency.toUpperCase();
    const minor = available.reduce((sum, entry) => sum + entry.amount, 0);
    return { amount: toMajor(minor, code), iso_currency_code: code, platform_data: { currency, available, pending } };
  });
}

export async function readBalance(ctx: ConnectorContext): Promise<PlatformBalance[]> {
  const answer = await withStripe(ctx, (stripe) => stripe.balance.retrieve());
  return mapBalance(parseRecord('balance', answer));
}
