/**
 * GET /accounting/transactions/:id (reference: FetchTransaction): one stored document that moves money as an
 * accounting transaction (./view.ts), by its service id or, with id_type=platform, its platform id.
 */
import { Type } from 'typebox';
import { boundedRead } from '../../../db/bounded-read.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { findAccountingTransactions } from '../../../sql/accounting-transactions.ts';
import { ExpandSchema, ForceFetchSchema, READ_ERRORS, wantsPlatformData } from '../../data/read.ts';
import { refusePathWordAsServiceId } from '../../shared/record-id.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';
import { AccountingTransactionSchema, accountingTransactionView, transactionsConnection } from './view.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/accounting/transactions/:id',
  auth: 'client',
  tags: ['accounting transactions'],
  summary: 'Fetch one accounting transaction',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 300, description: 'Service id, or the platform id with id_type=platform.' }) }),
  querystring: Type.Object({
    access_token: Type.Optional(Type.String()),
    id_type: Type.Optional(
      Type.Union([Type.Literal('service'), Type.Literal('platform')], {
        description: 'Default service. A platform id that names documents of several types (QuickBooks numbers each type apart) is a 400.',
      }),
    ),
    expand: ExpandSchema,
    force_fetch: ForceFetchSchema,
  }),
  success: { status: 200, schema: Type.Object({ transaction: AccountingTransactionSchema, connection: ConnectionRefSchema }) },
  errors: [...READ_ERRORS, 'RESOURCE_NOT_FOUND', 'ROUTE_NOT_FOUND', 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  const { query } = request;
  const { id } = request.params;
  const by = query.id_type ?? 'service';
  if (by === 'service') refusePathWordAsServiceId(request, id);
  const { connection, types } = await transactionsConnection(request, query.access_token, query.force_fetch === 'true');
  const { pool, config } = request.server.services;
  const rows = await boundedRead(pool, config.readLimits.statementTimeoutMs, { field: 'id', location: 'params' }, (db) =>
    findAccountingTransactions(db, connection.id, types, by, id, wantsPlatformData(query.expand)),
  );
  const [row, other] = rows;
  if (row === undefined) {
    throw new ServiceError(
      'RESOURCE_NOT_FOUND',
      `No accounting transaction with ${by === 'platform' ? 'platform id' : 'id'} ${id} in this connection.`,
      {
        source: 'service',
        field: 'id',
        location: 'params',
      },
    );
  }
  if (other !== undefined) {
    throw new ServiceError(
      'VALIDATION_ERROR',
      `Platform id ${id} names documents of several types (${rows.map((r) => r.object_type).join(', ')}); fetch by the service id of the one you want.`,
      { source: 'service', field: 'id', location: 'params' },
    );
  }
  return { transaction: accountingTransactionView(row), connection: connectionRef(connection) };
});
