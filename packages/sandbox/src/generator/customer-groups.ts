/**
 * The web shop's customer groups: segments of its buyers by their orders, as a shop keeps them (Shopify's customer
 * segments, whose rule Query is in its segment query language): repeat customers, one-time customers and the top
 * spenders. Drawn from the orders alone (no random source) and emitted after every other record, so the books before
 * them are what they were without them. Nothing posts to a group.
 */
import { stamp } from '../dates.ts';
import type { NativeCustomerGroup } from '../native.ts';
import type { Emitter } from './emitter.ts';
import type { ShopOrders } from './shop.ts';

interface Buyer {
  id: string;
  orders: number;
  /** Paid and not refunded, in cents of the shop's currency. */
  spentCents: number;
  lastOrderAt: string;
}

function buyersOf(shop: ShopOrders): Buyer[] {
  const buyers = new Map<string, Buyer>();
  for (const order of shop.orders) {
    const buyer = buyers.get(order.buyer.Id) ?? { id: order.buyer.Id, orders: 0, spentCents: 0, lastOrderAt: order.updatedAt };
    buyer.orders += 1;
    if (order.charged && !order.refunded) buyer.spentCents += order.totalCents;
    if (order.updatedAt > buyer.lastOrderAt) buyer.lastOrderAt = order.updatedAt;
    buyers.set(buyer.id, buyer);
  }
  return [...buyers.values()];
}

/** The spend, in whole currency units, that the top tenth of buyers (at least one) reached. */
function topSpendUnits(buyers: readonly Buyer[]): number {
  const spends = buyers.map((b) => b.spentCents).sort((a, b) => b - a);
  const cut = spends[Math.max(0, Math.ceil(spends.length / 10) - 1)] ?? 0;
  return Math.max(1, Math.floor(cut / 100));
}

export function generateCustomerGroups(out: Emitter, shop: ShopOrders, start: string): NativeCustomerGroup[] {
  const buyers = buyersOf(shop);
  const top = topSpendUnits(buyers);
  const rules: readonly [string, string, (buyer: Buyer) => boolean][] = [
    ['Repeat customers', 'number_of_orders > 1', (b) => b.orders > 1],
    ['One-time customers', 'number_of_orders = 1', (b) => b.orders === 1],
    ['Top spenders', `amount_spent >= ${top}`, (b) => b.spentCents >= top * 100],
  ];
  return rules.map(([name, query, holds], n) => {
    const members = buyers.filter(holds);
    // Made a minute apart from 10:00 on the first day of the books (after the tax areas, made from 09:00); changed
    // last when a member's last order did.
    const createdAt = stamp(start, 36_000 + n * 60);
    const changedAt = members.reduce((latest, b) => (b.lastOrderAt > latest ? b.lastOrderAt : latest), createdAt);
    const group: NativeCustomerGroup = {
      Id: out.nextId('customer_group'),
      CreatedAt: createdAt,
      UpdatedAt: changedAt,
      Name: name,
      Query: query,
      ShopperIds: members.map((b) => b.id),
    };
    out.push('customer_group', group);
    return group;
  });
}
