/**
 * The accounting transaction (reference: `AccountingTransaction`): a view over the stored documents that move money,
 * each named by its own id and type. Not stored or synced itself: every platform that reads one of these documents
 * serves it (docs/reference.md, "Reports, accounting transactions, invoice PDFs and the bank feed OTP").
 */
import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { connectionForAccessToken } from '../../../connections/connections.ts';
import { assertReadable } from '../../../connections/readiness.ts';
import { assertLinked } from '../../../connections/unlinked.ts';
import type { ConnectionRecord } from '../../../connections/types.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { requireTenant } from '../../../http/auth.ts';
import type { UnifiedObjectType } from '../../../model/object-types.ts';
import { getConnector } from '../../../platforms/index.ts';
import type { AccountingTransactionRow } from '../../../sql/accounting-transactions.ts';
import { assertProductAllowed } from '../../../tenants/products.ts';

/** The documents that move money: payments in and out, spending, deposits, transfers, journal entries, cash sales. */
export const MONEY_DOCUMENTS = [
  'bank_deposit',
  'bank_transfer',
  'bill_payment',
  'expense',
  'invoice_payment',
  'journal_entry',
  'sales_receipt',
] as const satisfies readonly UnifiedObjectType[];

export const AccountingTransactionSchema = Type.Object(
  {
    id: Type.String({ description: 'Service id of the transaction: the service id of the document it is.' }),
    platform_id: Type.String({ description: "The platform's id of the document." }),
    rutter_transaction_id: Type.Union([Type.String(), Type.Null()], { description: 'Service id of the document (GET its own endpoint with it).' }),
    transaction_date: Type.String({ description: 'YYYY-MM-DD: the transaction date of the document (a sales receipt its issue date).' }),
    rutter_transaction_type: Type.Union([Type.String(), Type.Null()], {
      description: `Object type of the document, as its endpoint names it: ${MONEY_DOCUMENTS.join(', ')}.`,
    }),
    last_synced_at: Type.String({ format: 'date-time' }),
    platform_url: Type.Union([Type.String(), Type.Null()]),
    platform_data: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'The raw platform record (expand=platform_data).' })),
  },
  { additionalProperties: false },
);

export type AccountingTransaction = Static<typeof AccountingTransactionSchema>;

const isMoneyDocument = (type: string): type is (typeof MONEY_DOCUMENTS)[number] => (MONEY_DOCUMENTS as readonly string[]).includes(type);

export function accountingTransactionView(row: AccountingTransactionRow): AccountingTransaction {
  return {
    id: row.id,
    platform_id: row.platform_id,
    rutter_transaction_id: row.id,
    transaction_date: (row.transaction_date ?? row.last_synced_at.toISOString()).slice(0, 10),
    rutter_transaction_type: isMoneyDocument(row.object_type) ? row.object_type : null,
    last_synced_at: row.last_synced_at.toISOString(),
    platform_url: row.platform_url,
    ...(row.raw === null ? {} : { platform_data: row.raw }),
  };
}

/**
 * The request's connection, ready for reads, with the document types its platform reads; 404
 * ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM where it reads none of them.
 */
export async function transactionsConnection(
  request: FastifyRequest,
  accessToken: string | undefined,
  forceFetch: boolean,
): Promise<{ connection: ConnectionRecord; types: UnifiedObjectType[] }> {
  const tenant = requireTenant(request);
  assertProductAllowed(tenant, 'journal_entry');
  const { pool, connectionCache } = request.server.services;
  const connection = await connectionForAccessToken(pool, tenant, accessToken, connectionCache);
  await assertLinked(pool, connection);
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  const types = MONEY_DOCUMENTS.filter((type) => connector?.objects[type]?.capabilities.read === true);
  if (connection.platform !== null && types.length === 0) {
    throw new ServiceError(
      'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
      `Accounting transactions are not available on ${connection.platform}; see docs/platforms.md.`,
      {
        source: 'service',
      },
    );
  }
  assertReadable(connection, forceFetch);
  return { connection, types };
}
