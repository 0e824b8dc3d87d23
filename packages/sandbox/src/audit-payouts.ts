/**
 * The audit of the web shop's payouts (audit.ts): a payout pays its transactions less their fees; every charged order
 * is paid out at most once, a pending order never, a refund only for a refunded order; a payout that has arrived is in
 * the books through its journal entry, whose checking line is the payout's amount, and one in transit is not yet.
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
