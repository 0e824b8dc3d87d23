/**
 * The audit of the web shop's payouts (audit.ts): a payout pays its transactions less their fees; every charged order
 * is paid out at most once, a pending order never, a refund only for a refunded order; a payout that has arrived is in
 * the books through its journal entry, whose checking line is the payout's amount, and one in transit is not yet.
 * The gateway's balance history (transactions) agrees: the charges and refunds naming a payout are the ones it paid,
 * and with the payout's own movement they sum to nothing; every charged order has its charge.
 */
type Obj = Record<string, unknown>;

export interface PayoutBooks {
  payouts: Map<string, Obj>;
  orders: Map<string, Obj>;
  journals: Map<string, Obj>;
  /** The journal entry (service id) each payout (service id) was posted by: platform data, as the platform keeps it. */
  postedBy: Map<string, string>;
  /** Service id of the checking account payouts arrive in. */
  checking: string;
  /** The gateway's transactions (unified), by service id. */
  transactions: Map<string, Obj>;
}

const cents = (value: unknown): number => Math.round(Number(value) * 100);
const arr = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);

export function payoutProblems(books: PayoutBooks): string[] {
  const problems: string[] = [];
  const paidOut = new Map<string, string>();
  for (const [id, payout] of books.payouts) {
    let net = 0;
    for (const t of arr(payout.transactions)) {
      net += cents(t.amount) - cents(t.fee);
      const orderId = String(t.order_id);
      const order = books.orders.get(orderId);
      if (order === undefined) continue;
      if (t.type === 'sale') {
        const earlier = paidOut.get(orderId);
        if (earlier !== undefined) problems.push(`${id}: pays out ${orderId} again (already in ${earlier})`);
        paidOut.set(orderId, id);
        if (order.payment_status === 'pending') problems.push(`${id}: pays out ${orderId}, which is not charged yet`);
        if (cents(t.amount) !== cents(order.total_price))
          problems.push(`${id}: charges ${orderId} ${String(t.amount)}, not its total ${String(order.total_price)}`);
      }
      if (t.type === 'refund' && order.payment_status !== 'refunded') problems.push(`${id}: refunds ${orderId}, which was not refunded`);
    }
    if (net !== cents(payout.amount)) problems.push(`${id}: amount ${String(payout.amount)} is not its transactions less fees ${net / 100}`);
    problems.push(...balanceHistoryProblems(id, payout, books.transactions));
    const journalId = books.postedBy.get(id);
    if (payout.status !== 'paid') {
      if (journalId !== undefined) problems.push(`${id}: ${String(payout.status)} yet posted by ${journalId}`);
      continue;
    }
    const journal = journalId === undefined ? undefined : books.journals.get(journalId);
    if (journal === undefined) {
      problems.push(`${id}: paid, and no journal entry posts it`);
      continue;
    }
    const banked = arr(journal.line_items)
      .filter((l) => l.account_id === books.checking)
      .reduce((sum, l) => sum + cents(l.total_amount), 0);
    if (banked !== cents(payout.amount))
      problems.push(`${id}: ${journalId} puts ${banked / 100} in checking, not the payout's ${String(payout.amount)}`);
  }
  return problems;
}

/** The gateway transactions naming a payout: its own movement out, and the charges and refunds it paid, net of fees. */
function balanceHistoryProblems(id: string, payout: Obj, transactions: Map<string, Obj>): string[] {
  const problems: string[] = [];
  const named = [...transactions.values()].filter((t) => t.payout_id === id);
  const paid = named.filter((t) => t.type !== 'payout');
  const out = named.filter((t) => t.type === 'payout');
  const net = paid.reduce((sum, t) => sum + cents(t.amount) - cents(t.fee), 0);
  if (net !== cents(payout.amount)) problems.push(`${id}: its gateway transactions net ${net / 100}, not its amount ${String(payout.amount)}`);
  if (out.length !== 1 || cents(out[0]?.amount) !== -cents(payout.amount))
    problems.push(`${id}: ${out.length} payout movements in the gateway history, not one of -${String(payout.amount)}`);
  const listed = new Set(arr(payout.transactions).map((t) => String(t.id)));
  const history = new Set(paid.map((t) => String(t.platform_id)));
  if (listed.size !== history.size || [...listed].some((t) => !history.has(t)))
    problems.push(`${id}: pays ${[...listed].sort().join(',')} but the gateway history names ${[...history].sort().join(',')}`);
  return problems;
}

/** Every charged order has one charge in the gateway's history, for its total. */
export function chargeProblems(orders: Map<string, Obj>, transactions: Map<string, Obj>): string[] {
  const problems: string[] = [];
  const charges = new Map<string, Obj[]>();
  for (const t of transactions.values()) {
    if (t.type !== 'sale') continue;
    const list = charges.get(String(t.order_id)) ?? [];
    list.push(t);
    charges.set(String(t.order_id), list);
  }
  for (const [id, order] of orders) {
    const found = charges.get(id) ?? [];
    const charged = order.payment_status !== 'pending';
    if (charged && (found.length !== 1 || cents(found[0]?.amount) !== cents(order.total_price)))
      problems.push(
        `${id}: charged ${String(order.total_price)}, gateway history has ${found.map((t) => String(t.amount)).join(',') || 'no charge'}`,
      );
    if (!charged && found.length > 0) problems.push(`${id}: pending, yet the gateway history charges it`);
  }
  return problems;
}
