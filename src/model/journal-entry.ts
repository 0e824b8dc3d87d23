/** Journal entry: the atomic accounting transaction, at least one debit and one credit summing to 0. */
import { Type, type Static } from 'typebox';
import {
  AdditionalFieldsProperty,
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

export const JournalEntryLineItemSchema = Type.Object(
  {
    account_id: Str('Service id of the account the line posts to.'),
    tax_rate_id: Nullable(Str('Service id of the tax rate.'), 'Service id of the tax rate applied to the line.'),
    total_amount: Type.Number({ description: 'Signed amount of the line: debit positive, credit negative.' }),
    description: Nullable(Str('Description of the line.'), 'Description of the line.'),
  },
  { additionalProperties: false, description: 'Debit or credit line of the journal entry.' },
);

export const JournalEntrySchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    subsidiary_id: Nullable(Str('Service id of the subsidiary.'), 'Service id of the subsidiary the entry belongs to (two ERP platforms).'),
    transaction_date: Timestamp('Date of the entry (ISO 8601).'),
    currency_code: Nullable(CurrencyCodeEnum('Currency of the entry.'), 'Currency of the entry; null when the platform does not say.'),
    // A number here (a string on bills); optional and not nullable in the spec, so it is left out when unknown.
    currency_rate: Type.Optional(
      Type.Number({ description: 'Rate from the entry currency to the business default currency. Absent when the platform does not give one.' }),
    ),
    deposited: Nullable(
      Type.Boolean({ description: 'Whether the entry was deposited.' }),
      'For entries debiting the undeposited funds account: whether they were deposited; null otherwise or when unsupported.',
    ),
    memo: Nullable(Str('Memo of the entry.'), 'Memo of the entry.'),
    line_items: Type.Array(JournalEntryLineItemSchema, { description: 'Lines of the entry; their signed amounts sum to 0.' }),
    additional_fields: AdditionalFieldsProperty,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  {
    additionalProperties: false,
    description: 'The atomic accounting transaction: at least one debit and one credit whose signed line amounts sum to 0.',
  },
);

export type JournalEntry = Static<typeof JournalEntrySchema>;
