/**
 * The web shop's catalogue, buyers and card-gateway balance history, drawn from the orders and payouts already made
 * (no random source): a product per item the business sells, a shopper per customer who ordered, and a gateway
 * transaction per charge, refund and payout. Made last, so every record before them is what it was without them.
 */
import { formatCents, parseCents } from '../money.ts';
import type { NativeGatewayTransaction, NativeOrder, NativePayout, NativeProduct, NativeShopper } from '../native.ts';
import type { PaletteItem } from '../documents.ts';
import type { Emitter, GeneratedRecord } from './emitter.ts';
import { gatewayFeeCents } from './payouts.ts';

/** What the shop keeps of each order while the records stream out: its buyer, dates and charge. */
interface OrderSeen {
  id: string;
  buyer: NativeOrder['Buyer'];
  at: string;
  updatedAt: string;
  currency: string;
  charged: boolean;
  refunded: boolean;
  totalCents: number;
  productIds: string[];
}

export class ShopOrders {
  readonly orders: OrderSeen[] = [];

  observe(records: readonly GeneratedRecord[]): void {
    for (const record of records) {
      if (record.type !== 'order') continue;
      // Generated records of the collection have its native shape by construction.
      const order = record.data as NativeOrder;
      this.orders.push({
        id: order.Id,
        buyer: order.Buyer,
        at: order.CreatedAt,
        updatedAt: order.UpdatedAt,
        currency: order.CurrencyCode,
        charged: order.FinancialStatus !== 'Pending',
        refunded: order.FinancialStatus === 'Refunded',
        totalCents: parseCents(order.Total),
        productIds: order.Lines.map((l) => l.ProductId),
      });
    }
  }
}

/** The gateway's charge of an order, as a balance movement; null PayoutId until a payout pays it. */
export function chargeTransaction(order: {
  id: string;
  buyerId: string;
  at: string;
  currency: string;
  totalCents: number;
}): NativeGatewayTransaction {
  return {
    Id: `CH-${order.id}`,
    CreatedAt: order.at,
    UpdatedAt: order.at,
    Kind: 'Charge',
    OrderId: order.id,
    ShopperId: order.buyerId,
    PayoutId: null,
    Amount: formatCents(order.totalCents),
    Fee: formatCents(gatewayFeeCents(order.totalCents)),
    CurrencyCode: order.currency,
  };
}

function productOf(item: PaletteItem, createdAt: string, currency: string): NativeProduct {
  return {
    Id: item.id,
    CreatedAt: createdAt,
    UpdatedAt: createdAt,
    Name: item.name,
    Description: `${item.name}, as sold in the web shop.`,
    Status: 'Active',
    Tags: ['web-shop'],
    CurrencyCode: currency,
    Variants: [
      {
        Id: `${item.id}-V1`,
        Sku: item.id.replace('ITEM', 'SKU'),
        Title: 'Default',
        Price: formatCents(item.salesCents),
        UnitCost: formatCents(item.costCents),
        InventoryQty: 100,
      },
    ],
  };
}

/** The orders' gift card line when the business sells no items (orders.ts draws it then). */
const GIFT_CARD: PaletteItem = {
  id: 'ITEM-000000',
  name: 'Gift card',
  salesCents: 2_500,
  costCents: 2_500,
  incomeAccountId: '',
  expenseAccountId: '',
};

export function generateShop(
  out: Emitter,
  items: readonly PaletteItem[],
  shop: ShopOrders,
  payouts: readonly NativePayout[],
  openedAt: string,
): void {
  const sold = new Set(shop.orders.flatMap((o) => o.productIds));
  const catalogue = sold.has(GIFT_CARD.id) && !items.some((i) => i.id === GIFT_CARD.id) ? [...items, GIFT_CARD] : items;
  const currency = shop.orders[0]?.currency ?? 'USD';
  for (const item of catalogue) out.push('product', productOf(item, openedAt, currency));

  const shoppers = new Map<string, NativeShopper>();
  for (const order of shop.orders) {
    const known = shoppers.get(order.buyer.Id);
    if (known === undefined) {
      const shopper: NativeShopper = {
        Id: order.buyer.Id,
        CreatedAt: order.at,
        UpdatedAt: order.updatedAt,
        Email: order.buyer.Email,
        FirstName: order.buyer.FirstName,
        LastName: order.buyer.LastName,
        OrderIds: [order.id],
      };
      if (order.buyer.Phone !== undefined) shopper.Phone = order.buyer.Phone;
      shoppers.set(order.buyer.Id, shopper);
    } else {
      known.OrderIds.push(order.id);
      if (order.at < known.CreatedAt) known.CreatedAt = order.at;
      if (order.updatedAt > known.UpdatedAt) known.UpdatedAt = order.updatedAt;
    }
  }
  for (const shopper of shoppers.values()) out.push('commerce_customer', shopper);

  // Which payout paid each charge and refund (payouts.ts: a payout's Transactions are the gateway's).
  const paidBy = new Map<string, NativePayout>();
  for (const payout of payouts) for (const t of payout.Transactions) paidBy.set(t.Id, payout);
  const buyerOf = new Map(shop.orders.map((o) => [o.id, o.buyer.Id]));
  for (const order of shop.orders) {
    if (!order.charged) continue;
    const charge = chargeTransaction({ id: order.id, buyerId: order.buyer.Id, at: order.at, currency: order.currency, totalCents: order.totalCents });
    const chargePayout = paidBy.get(charge.Id);
    if (chargePayout !== undefined) charge.PayoutId = chargePayout.Id;
    out.push('transaction', charge);
    if (!order.refunded) continue;
    const refundId = `RE-${order.id}`;
    const refundAt = new Date(Date.parse(order.at) + 3_600_000).toISOString();
    out.push('transaction', {
      Id: refundId,
      CreatedAt: refundAt,
      UpdatedAt: refundAt,
      Kind: 'Refund',
      OrderId: order.id,
      ShopperId: buyerOf.get(order.id) ?? null,
      PayoutId: paidBy.get(refundId)?.Id ?? null,
      Amount: formatCents(-order.totalCents),
      Fee: '0.00',
      CurrencyCode: order.currency,
    } satisfies NativeGatewayTransaction);
  }
  for (const payout of payouts) out.push('transaction', payoutTransaction(payout));
}

/** The payout's own movement of the gateway balance: all it paid, out (negative). */
export function payoutTransaction(payout: NativePayout): NativeGatewayTransaction {
  return {
    Id: `PO-${payout.Id}`,
    CreatedAt: payout.CreatedAt,
    UpdatedAt: payout.CreatedAt,
    Kind: 'Payout',
    OrderId: null,
    ShopperId: null,
    PayoutId: payout.Id,
    Amount: formatCents(-parseCents(payout.Amount)),
    Fee: '0.00',
    CurrencyCode: payout.CurrencyCode,
  };
}
