/**
 * AP and AR aging summaries (reference 2023-03-14: "AP Aging Report Summary", "AR Aging Report Summary"): one object
 * per request, as of the end of end_date, computed from the stored bills or invoices (src/sql/aging-summary.ts), so
 * every platform answers it and any past date works. Amounts are JSON numbers (spec, Shared rules) where the reference
 * has strings; each row carries its currency, since documents of one party may be in several.
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { serviceId } from '../../../store/ids.ts';
import { agingSummary } from '../../../sql/aging-summary.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';
import { ForceFetchSchema, readableConnection } from '../../data/read.ts';

interface Side {
  url: string;
  key: 'ap_aging_report_summary' | 'ar_aging_report_summary';
  rows: 'vendors' | 'customers';
  documents: { type: 'bill' | 'invoice'; party: 'vendor_id' | 'customer_id'; partyType: 'vendor' | 'customer' };
  noun: string;
}

const BUCKETS = {
  current: Type.Number({ description: 'Owed and not yet past due (or without a due date).' }),
  days30: Type.Number({ description: '1 to 30 days past due.' }),
  days60: Type.Number({ description: '31 to 60 days past due.' }),
  days90: Type.Number({ description: '61 to 90 days past due.' }),
  days91plus: Type.Number({ description: 'More than 90 days past due.' }),
  total: Type.Number({ description: 'All the party owes or is owed, in this currency.' }),
};

const DateQuery = (description: string) => Type.Optional(Type.String({ format: 'date', description }));

const PartyId = (noun: string) =>
  Type.Union([Type.String(), Type.Null()], { description: `Service id of the ${noun}; null for documents without one.` });
const RowCurrency = Type.Union([Type.String(), Type.Null()], { description: 'Currency of the amounts of this row.' });

function rowSchema(side: Side): TSchema {
  if (side.rows === 'vendors')
    return Type.Object({ vendor_id: PartyId('vendor'), currency_code: RowCurrency, ...BUCKETS }, { additionalProperties: false });
  return Type.Object(
    {
      customer_id: PartyId('customer'),
      customer_parent_id: Type.Union([Type.String(), Type.Null()], {
        description: "Service id of the customer's parent, where the platform nests customers.",
      }),
      currency_code: RowCurrency,
      ...BUCKETS,
    },
    { additionalProperties: false },
  );
}

const DAY_MS = 86_400_000;

function agingEndpoint(side: Side): Endpoint {
  const contract = defineContract({
    method: 'GET',
    url: side.url,
    auth: 'client',
    tags: ['reports'],
    summary: `${side.noun} aging summary`,
    description: `What each ${side.rows === 'vendors' ? 'vendor is owed on open bills' : 'customer owes on open invoices'} as of the end of end_date (default: now), by days past due; computed from the stored ${side.documents.type}s and their allocations.`,
    querystring: Type.Object(
      {
        access_token: Type.Optional(Type.String()),
        start_date: DateQuery("Start of the report period (YYYY-MM-DD), the reference's; not after end_date. The aging itself is as of end_date."),
        end_date: DateQuery('Date the aging is as of (YYYY-MM-DD; its end, UTC). Default: now.'),
        force_fetch: ForceFetchSchema,
      },
      { additionalProperties: false },
    ),
    success: {
      status: 200,
      schema: Type.Object({
        [side.key]: Type.Object(
          {
            id: Type.String({ description: 'Stable per connection, kind and end_date.' }),
            start_date: Type.String({ format: 'date-time' }),
            end_date: Type.String({ format: 'date-time' }),
            [side.rows]: Type.Array(rowSchema(side)),
            created_at: Type.String({ format: 'date-time', description: 'When this answer was computed.' }),
          },
          { additionalProperties: false },
        ),
        connection: ConnectionRefSchema,
      }),
    },
    errors: [
      'MISSING_ACCESS_TOKEN',
      'INVALID_CREDENTIALS',
      'VALIDATION_ERROR',
      'PRODUCT_NOT_ALLOWED',
      'PRODUCT_NOT_READY',
      'NEEDS_UPDATE',
      'NO_CREDENTIALS',
      'PENDING',
      'LINK_ERROR',
      'IS_DUPLICATE',
      'CONNECTION_DISABLED',
      'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
      'RATE_LIMIT_EXCEEDED',
    ],
  });
  return defineEndpoint(contract, async (request) => {
    const query = request.query;
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const endDay = query.end_date ?? today;
    // The end of end_date, or now for today: documents and payments of the rest of today are not known yet.
    const asOf = endDay >= today ? now : new Date(Date.parse(`${endDay}T00:00:00Z`) + DAY_MS - 1);
    const startDay = query.start_date ?? endDay;
    if (startDay > endDay) {
      throw new ServiceError('VALIDATION_ERROR', `\`start_date\` (${startDay}) is after \`end_date\` (${endDay}).`, {
        source: 'service',
        field: 'start_date',
        location: 'query',
      });
    }
    const connection = await readableConnection(request, side.documents.type, query.access_token, query.force_fetch === 'true');
    const rows = await agingSummary(request.server.services.pool, connection.id, side.documents, asOf);
    const amount = (text: string) => Number(text);
    return {
      [side.key]: {
        id: serviceId(connection.id, side.documents.type, `aging:${endDay}`),
        start_date: `${startDay}T00:00:00.000Z`,
        end_date: asOf.toISOString(),
        [side.rows]: rows.map((row) => ({
          ...(side.rows === 'vendors' ? { vendor_id: row.party_id } : { customer_id: row.party_id, customer_parent_id: row.parent_id }),
          currency_code: row.currency_code,
          current: amount(row.current),
          days30: amount(row.days30),
          days60: amount(row.days60),
          days90: amount(row.days90),
          days91plus: amount(row.days91plus),
          total: amount(row.total),
        })),
        created_at: now.toISOString(),
      },
      connection: connectionRef(connection),
    };
  });
}

export const agingEndpoints: Endpoint[] = [
  agingEndpoint({
    url: '/accounting/ap_aging_report_summaries',
    key: 'ap_aging_report_summary',
    rows: 'vendors',
    documents: { type: 'bill', party: 'vendor_id', partyType: 'vendor' },
    noun: 'Accounts payable',
  }),
  agingEndpoint({
    url: '/accounting/ar_aging_report_summaries',
    key: 'ar_aging_report_summary',
    rows: 'customers',
    documents: { type: 'invoice', party: 'customer_id', partyType: 'customer' },
    noun: 'Accounts receivable',
  }),
];
