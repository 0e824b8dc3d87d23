/** GET /accounting/bank_feeds/transactions/:id: one line the platform accepted (the reference's "Fetch Bank Feed Transaction"). */
import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { isUuid } from '../../../http/uuid.ts';
import { boundedRead } from '../../../db/bounded-read.ts';
import { fetchBankFeedTransaction } from '../../../sql/bank-feed-transactions.ts';
import { ForceFetchSchema, READ_ERRORS, readableConnection } from '../../data/read.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';
import { refusePathWordAsServiceId } from '../../shared/record-id.ts';
import { BankFeedTransactionSchema, bankFeedTransactionView } from './transaction-view.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/accounting/bank_feeds/transactions/:id',
  auth: 'client',
  tags: ['bank feed accounts'],
  summary: 'Fetch one bank feed transaction',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 300, description: 'Service id of the line.' }) }),
  querystring: Type.Object({ access_token: Type.Optional(Type.String()), force_fetch: ForceFetchSchema }),
  success: { status: 200, schema: Type.Object({ bank_feed_transaction: BankFeedTransactionSchema, connection: ConnectionRefSchema }) },
  errors: [...READ_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  const { id } = request.params;
  refusePathWordAsServiceId(request, id);
  const connection = await readableConnection(request, 'bank_feed_account', request.query.access_token, request.query.force_fetch === 'true');
  const { pool, config } = request.server.services;
  // Ids are ours (uuid): anything else names no line, without asking the database.
  const row = isUuid(id)
    ? await boundedRead(pool, config.readLimits.statementTimeoutMs, { field: 'id', location: 'params' }, (db) =>
        fetchBankFeedTransaction(db, connection.id, id),
      )
    : null;
  if (row === null) {
    throw new ServiceError('RESOURCE_NOT_FOUND', `No bank feed transaction with id ${id} in this connection.`, {
      source: 'service',
      field: 'id',
      location: 'params',
    });
  }
  return { bank_feed_transaction: bankFeedTransactionView(row), connection: connectionRef(connection) };
});
