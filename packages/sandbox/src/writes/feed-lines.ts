/**
 * Statement lines sent to a bank feed account (POST /v1/BankFeedAccounts/<id>/Transactions). The
 * platform keeps one line per (feed, InstitutionTxnId) in sandbox_platform.feed_lines: a line it
 * already has is counted as a duplicate, never stored twice. Only a Ready feed (linked to a ledger
 * account) takes lines; its first accepted batch turns it Active.
 */
import { formatCents } from '../money.ts';
import type { NativeFeedAccount } from '../native.ts';
import { invalid, NativeError } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { cents, date, list, notFound, text, type Body } from './validate.ts';

export const MAX_FEED_LINES = 1_000;

/** Id prefix of batches (one per accepted request): "FTB-000001". */
const BATCH_PREFIX = 'FTB';

export interface FeedBatch {
  Id: string;
  Accepted: number;
  Duplicates: number;
}

export interface FeedBatchResult {
  Batch: FeedBatch;
  Item: NativeFeedAccount;
}

interface Line {
  txnId: string;
  date: string;
  cents: number;
  description: string;
  payee: string | null;
  reference: string | null;
  runningBalance: number | null;
}

/** Reads one field of a line, naming it in full (Transactions[3].Date) when it is wrong. */
function within<T>(prefix: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof NativeError && error.element !== null) {
      throw new NativeError(error.status, error.code, `${prefix}.${error.message}`, `${prefix}.${error.element}`);
    }
    throw error;
  }
}

function lineOf(entry: Body, n: number): Line {
  const at = `Transactions[${n}]`;
  return within(at, () => ({
    txnId: text(entry, 'InstitutionTxnId', true),
    date: date(entry, 'Date', true),
    cents: cents(entry, 'Amount', true),
    description: text(entry, 'Description', true),
    payee: text(entry, 'Payee') ?? null,
    reference: text(entry, 'Reference') ?? null,
    runningBalance: cents(entry, 'RunningBalance') ?? null,
  }));
}

export async function receiveFeedLines(unit: Unit, feedId: string, body: Body): Promise<FeedBatchResult> {
  const feed = await unit.get('bank_feed_account', feedId);
  if (feed === null) throw notFound('bank_feed_account', feedId);
  if (!feed.Ready) {
    throw invalid(
      'FeedNotReady',
      `bank feed account ${feedId} is not linked to a ledger account yet: the business must link it first, ` +
        `on the page POST /v1/BankFeedAccounts/${feedId}/MappingLink answers with`,
      'Ready',
    );
  }
  const entries = list(body, 'Transactions', true);
  if (entries.length === 0 || entries.length > MAX_FEED_LINES) {
    throw invalid('InvalidField', `Transactions must have from 1 to ${MAX_FEED_LINES} lines; this batch has ${entries.length}`, 'Transactions');
  }
  const lines = entries.map(lineOf);
  const batchId = unit.nextNumbered(BATCH_PREFIX);
  // One statement for the batch; the key skips lines the feed already has (and repeats within the batch).
  const inserted = await unit.client.query(
    `INSERT INTO sandbox_platform.feed_lines
       (account_id, feed_id, institution_txn_id, batch_id, txn_date, amount_cents, description, payee, reference, running_balance_cents, received_at)
     SELECT $1, $2, x.i, $3, x.d, x.c, x.t, x.p, x.r, x.b, $4
     FROM json_to_recordset($5::json) AS x(i text, d date, c bigint, t text, p text, r text, b bigint)
     ON CONFLICT (account_id, feed_id, institution_txn_id) DO NOTHING`,
    [
      unit.state.id,
      feedId,
      batchId,
      unit.at,
      JSON.stringify(
        lines.map((l) => ({
          i: l.txnId,
          d: l.date,
          c: l.cents,
          t: l.description,
          p: l.payee,
          r: l.reference,
          b: l.runningBalance,
        })),
      ),
    ],
  );
  const accepted = inserted.rowCount ?? 0;
  if (accepted > 0) {
    feed.FeedStatus = 'Active';
    const latest = lines.reduce((d, l) => (l.date > d ? l.date : d), feed.LastStatementDate ?? '');
    if (latest !== '') feed.LastStatementDate = latest;
    // The statement's closing balance: the running balance of the last line sent, when the bank gave one.
    const closing = lines[lines.length - 1]?.runningBalance ?? null;
    if (closing !== null) {
      feed.CurrentBalance = formatCents(closing);
      feed.LastStatementBalance = formatCents(closing);
    }
    unit.touch('bank_feed_account', feed);
  }
  return { Batch: { Id: batchId, Accepted: accepted, Duplicates: lines.length - accepted }, Item: feed };
}
