/**
 * GET /accounting/bank_feeds/transactions: the lines sent to the connection's bank feed accounts that the platform
 * accepted, newest first (the reference's "List Bank Feed Transactions"; docs/reference.md says what we add).
 */
import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { decodeCursor, encodeCursor } from '../../../http/keyset-cursor.ts';
import { boundedRead } from '../../../db/bounded-read.ts';
import { listBankFeedTransactions } from '../../../sql/bank-feed-transactions.ts';
import { ForceFetchSchema, READ_ERRORS, readableConnection } from '../../data/read.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';
import { BankFeedTransactionSchema, bankFeedTransactionView } from './transaction-view.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

export const contract = defineContract({
  method: 'GET',
  url: '/accounting/bank_feeds/transactions',
  auth: 'client',
  tags: ['bank feed accounts'],
  summary: 'List bank feed transactions',
  description: 'The lines sent with POST /accounting/bank_feeds/transactions that the platform accepted, newest first, keyset-paged.',
  querystring: Type.Object({
    access_token: Type.Optional(Type.String()),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Default ${DEFAULT_LIMIT}.` })),
    bank_feed_account_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only the lines of this bank feed account.' })),
    force_fetch: ForceFetchSchema,
  }),
  success: {
    status: 200,
    schema: Type.Object({
      bank_feed_transactions: Type.Array(BankFeedTransactionSchema),
      next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
      connection: ConnectionRefSchema,
    }),
  },
  errors: [...READ_ERRORS, 'INVALID_CURSOR', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  const { access_token: accessToken, cursor, bank_feed_account_id: feedId, force_fetch: forceFetch } = request.query;
  const limit = request.query.limit ?? DEFAULT_LIMIT;
  const from = cursor === undefined || cursor === '' ? null : decodeCursor(cursor);
  const connection = await readableConnection(request, 'bank_feed_account', accessToken, forceFetch === 'true');
  const { pool, config } = request.server.services;
  const rows = await boundedRead(pool, config.readLimits.statementTimeoutMs, { field: 'limit', location: 'query' }, (db) =>
    listBankFeedTransactions(db, { connectionId: connection.id, bankFeedAccountId: feedId ?? null, from, limit }),
  );
  const next = rows[limit];
  return {
    bank_feed_transactions: rows.slice(0, limit).map(bankFeedTransactionView),
    next_cursor: next === undefined ? null : encodeCursor({ createdAt: next.position_ts, id: next.id }),
    connection: connectionRef(connection),
  };
});
