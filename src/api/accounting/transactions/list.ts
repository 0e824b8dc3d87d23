/**
 * GET /accounting/transactions (reference: ListTransactions): the connection's stored documents that move money as
 * accounting transactions (./view.ts), most recently synced first, keyset-paged.
 */
import { Type } from 'typebox';
import { boundedRead } from '../../../db/bounded-read.ts';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { decodeCursor, encodeCursor } from '../../../http/keyset-cursor.ts';
import { isoOfUnixMillis, UnixMillisParam } from '../../../http/time-params.ts';
import { listAccountingTransactions } from '../../../sql/accounting-transactions.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../data/list-query.ts';
import { ExpandSchema, ForceFetchSchema, READ_ERRORS, wantsPlatformData } from '../../data/read.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';
import { AccountingTransactionSchema, accountingTransactionView, transactionsConnection } from './view.ts';

const isoOrNull = (ms: number | undefined): string | null => (ms === undefined ? null : isoOfUnixMillis(ms));

export const contract = defineContract({
  method: 'GET',
  url: '/accounting/transactions',
  auth: 'client',
  tags: ['accounting transactions'],
  summary: 'List accounting transactions',
  description:
    'The stored payments, expenses, deposits, transfers, journal entries and sales receipts, each named by its own id and type (rutter_transaction_id, rutter_transaction_type); most recently synced first, keyset-paged. No filter or sort.',
  querystring: Type.Object(
    {
      access_token: Type.Optional(Type.String()),
      cursor: Type.Optional(Type.String({ maxLength: 512, description: 'next_cursor of the previous page.' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Page size, default ${DEFAULT_LIMIT}.` })),
      expand: ExpandSchema,
      updated_at_min: Type.Optional(UnixMillisParam("Only documents updated at or after this instant (the document's updated_at).")),
      updated_at_max: Type.Optional(UnixMillisParam("Only documents updated at or before this instant (the document's updated_at).")),
      last_synced_at_min: Type.Optional(UnixMillisParam('Only documents synced at or after this instant.')),
      force_fetch: ForceFetchSchema,
    },
    { additionalProperties: false },
  ),
  success: {
    status: 200,
    schema: Type.Object({
      transactions: Type.Array(AccountingTransactionSchema),
      next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
      connection: ConnectionRefSchema,
    }),
  },
  errors: [...READ_ERRORS, 'INVALID_CURSOR', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  const { query } = request;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const from = query.cursor === undefined || query.cursor === '' ? null : decodeCursor(query.cursor);
  const { connection, types } = await transactionsConnection(request, query.access_token, query.force_fetch === 'true');
  const { pool, config } = request.server.services;
  const rows = await boundedRead(pool, config.readLimits.statementTimeoutMs, { field: 'limit', location: 'query' }, (db) =>
    listAccountingTransactions(db, {
      connectionId: connection.id,
      types,
      from,
      limit,
      withRaw: wantsPlatformData(query.expand),
      updatedAtMin: isoOrNull(query.updated_at_min),
      updatedAtMax: isoOrNull(query.updated_at_max),
      lastSyncedAtMin: isoOrNull(query.last_synced_at_min),
    }),
  );
  const next = rows[limit];
  return {
    transactions: rows.slice(0, limit).map(accountingTransactionView),
    next_cursor: next === undefined ? null : encodeCursor({ createdAt: next.position_ts, id: next.id }),
    connection: connectionRef(connection),
  };
});
